//! The S3-compatible server, the proxy that dies mid-transfer and a KeyValueStore's data plane,
//! for the deploy and redirect tests (`moto` is the deploy benchmark's too).

pub mod kvs;
pub mod moto;
pub mod proxy;
