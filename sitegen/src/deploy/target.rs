//! Where a deploy goes: `s3://BUCKET[/PREFIX]`, parsed once with a message that names the fix.

use std::fmt;
use std::str::FromStr;

/// A bucket and the key prefix the site is published under (empty, or ending with `/`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The bucket's name.
    pub bucket: String,
    /// Prepended to every key: `""` or `"preview/"`.
    pub prefix: String,
}

impl FromStr for Target {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let Some(rest) = text.strip_prefix("s3://") else {
            return Err(format!(
                "{text:?} is not a bucket address; write s3://BUCKET or s3://BUCKET/PREFIX"
            ));
        };
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        let valid_bucket = (3..=63).contains(&bucket.len())
            && bucket
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.')
            && !bucket.starts_with(['-', '.'])
            && !bucket.ends_with(['-', '.']);
        if !valid_bucket {
            return Err(format!(
                "{bucket:?} in {text:?} is not a bucket name: 3 to 63 lowercase letters, digits, \
                 '-' or '.'"
            ));
        }
        let prefix = prefix.trim_matches('/');
        if prefix.split('/').any(|s| s == "." || s == "..") || prefix.contains("//") {
            return Err(format!(
                "prefix {prefix:?} in {text:?} has an empty, '.' or '..' segment"
            ));
        }
        let prefix = if prefix.is_empty() {
            String::new()
        } else {
            format!("{prefix}/")
        };
        Ok(Self {
            bucket: bucket.to_owned(),
            prefix,
        })
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "s3://{}/{}", self.bucket, self.prefix)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_and_prefix_are_split_and_the_prefix_ends_with_a_slash() {
        let t: Target = "s3://www-example/preview/v2/".parse().expect("valid");
        assert_eq!(t.bucket, "www-example");
        assert_eq!(t.prefix, "preview/v2/");
        let t: Target = "s3://www-example".parse().expect("valid");
        assert_eq!(t.prefix, "");
        assert_eq!(t.to_string(), "s3://www-example/");
    }

    #[test]
    fn bad_addresses_say_what_is_wrong() {
        let err = "www-example".parse::<Target>().expect_err("no scheme");
        assert_eq!(
            err,
            "\"www-example\" is not a bucket address; write s3://BUCKET or s3://BUCKET/PREFIX"
        );
        assert!(
            "s3://Bad_Bucket"
                .parse::<Target>()
                .expect_err("bad name")
                .contains("is not a bucket name")
        );
        assert!(
            "s3://bucket/a/../b"
                .parse::<Target>()
                .expect_err("dot dot")
                .contains("'..'")
        );
    }
}
