//! The S3-compatible server and the proxy that dies mid-transfer, for the deploy and redirect
//! tests (`moto` is the deploy benchmark's too).

pub mod moto;
pub mod proxy;
