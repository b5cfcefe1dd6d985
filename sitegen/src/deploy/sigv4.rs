//! Signs a request for an AWS API with Signature Version 4 in the `Authorization` header,
//! through AWS's own `aws-sigv4`. Header signing rather than presigned URLs: every
//! S3-compatible store and the CloudFront API accept it. The CloudFront KeyValueStore's data
//! plane, a global endpoint, takes only the asymmetric variant SigV4A (region set `*`).

use std::time::SystemTime;

use aws_sigv4::http_request::{
    PayloadChecksumKind, PercentEncodingMode, SignableBody, SignableRequest, SigningSettings,
    UriPathNormalizationMode, sign,
};
use aws_sigv4::sign::{v4, v4a};

use super::credentials::Credentials;

/// The service a request is for: S3 encodes and hashes differently from the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Service {
    /// `s3`: the path is encoded once and the payload's SHA-256 goes in a header.
    S3,
    /// `cloudfront`, always in `us-east-1`.
    CloudFront,
    /// `cloudfront-keyvaluestore`, the data plane of a KeyValueStore: SigV4A for every region.
    KeyValueStore,
}

/// A request to sign.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// `GET`, `PUT`, `POST`.
    pub method: &'a str,
    /// The full URL, query included.
    pub url: &'a str,
    /// The headers that will be sent, lowercase names.
    pub headers: &'a [(&'a str, &'a str)],
    /// The body that will be sent.
    pub body: &'a [u8],
}

/// The headers that sign `request` at `time`: `x-amz-date`, `authorization`, and for S3
/// `x-amz-content-sha256` (`x-amz-security-token` too, with temporary credentials).
pub fn headers(
    service: Service,
    region: &str,
    credentials: &Credentials,
    request: Request<'_>,
    time: SystemTime,
) -> Result<Vec<(String, String)>, String> {
    let identity = aws_credential_types::Credentials::new(
        credentials.key.clone(),
        credentials.secret.clone(),
        credentials.token.clone(),
        None,
        "sitegen",
    )
    .into();
    let mut settings = SigningSettings::default();
    let params = match service {
        Service::S3 | Service::CloudFront => {
            let (name, region) = if service == Service::S3 {
                settings.percent_encoding_mode = PercentEncodingMode::Single;
                settings.payload_checksum_kind = PayloadChecksumKind::XAmzSha256;
                settings.uri_path_normalization_mode = UriPathNormalizationMode::Disabled;
                ("s3", region)
            } else {
                ("cloudfront", "us-east-1")
            };
            v4::SigningParams::builder()
                .identity(&identity)
                .region(region)
                .name(name)
                .time(time)
                .settings(settings)
                .build()
                .map_err(|e| format!("signing: {e}"))?
                .into()
        }
        Service::KeyValueStore => v4a::SigningParams::builder()
            .identity(&identity)
            .region_set("*")
            .name("cloudfront-keyvaluestore")
            .time(time)
            .settings(settings)
            .build()
            .map_err(|e| format!("signing: {e}"))?
            .into(),
    };
    let signable = SignableRequest::new(
        request.method,
        request.url,
        request.headers.iter().copied(),
        SignableBody::Bytes(request.body),
    )
    .map_err(|e| format!("signing: {e}"))?;
    let (instructions, _) = sign(signable, &params)
        .map_err(|e| format!("signing: {e}"))?
        .into_parts();
    Ok(instructions
        .headers()
        .map(|(n, v)| (n.to_owned(), v.to_owned()))
        .collect())
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, UNIX_EPOCH};

    use super::*;

    #[test]
    fn the_s3_signature_matches_the_aws_documentation_example() {
        // "GET Object" of the S3 SigV4 documentation: examplebucket/test.txt, bytes 0-9,
        // Fri, 24 May 2013 00:00:00 GMT.
        let credentials = Credentials {
            key: "AKIAIOSFODNN7EXAMPLE".into(),
            secret: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY".into(),
            token: None,
        };
        let time = UNIX_EPOCH + Duration::from_secs(1_369_353_600);
        let signed = headers(
            Service::S3,
            "us-east-1",
            &credentials,
            Request {
                method: "GET",
                url: "https://examplebucket.s3.amazonaws.com/test.txt",
                headers: &[("range", "bytes=0-9")],
                body: b"",
            },
            time,
        )
        .expect("signed");
        let auth = signed
            .iter()
            .find(|(n, _)| n == "authorization")
            .map(|(_, v)| v.as_str());
        assert_eq!(
            auth,
            Some(
                "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, \
                 SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, \
                 Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"
            )
        );
    }

    #[test]
    fn a_key_value_store_request_is_signed_with_sigv4a_for_every_region() {
        let credentials = Credentials {
            key: "AKIAIOSFODNN7EXAMPLE".into(),
            secret: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY".into(),
            token: None,
        };
        let signed = headers(
            Service::KeyValueStore,
            "",
            &credentials,
            Request {
                method: "GET",
                url: "https://123456789012.cloudfront-kvs.global.api.aws/key-value-stores/x",
                headers: &[],
                body: b"",
            },
            UNIX_EPOCH + Duration::from_secs(1_369_353_600),
        )
        .expect("signed");
        let get = |name: &str| {
            signed
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        assert_eq!(get("x-amz-region-set"), Some("*"));
        let auth = get("authorization").expect("an authorization header");
        assert!(
            auth.starts_with(
                "AWS4-ECDSA-P256-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/cloudfront-keyvaluestore/aws4_request, "
            ),
            "{auth}"
        );
    }
}
