//! Credentials and region as the AWS tools find them: the environment first
//! (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`, `AWS_REGION` or
//! `AWS_DEFAULT_REGION`), then the profile `AWS_PROFILE` (else `default`) of
//! `~/.aws/credentials` and `~/.aws/config` (or `AWS_SHARED_CREDENTIALS_FILE`,
//! `AWS_CONFIG_FILE`). In CI, an OIDC step (such as `aws-actions/configure-aws-credentials`)
//! exports the environment variables. Secrets are never read from `content/`.

use std::collections::HashMap;
use std::path::PathBuf;

use anyhow::{Result, bail};

/// What a deploy signs its requests with.
#[derive(Clone, PartialEq, Eq)]
pub struct Credentials {
    /// The access key id.
    pub key: String,
    /// The secret access key.
    pub secret: String,
    /// The session token of temporary credentials.
    pub token: Option<String>,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

/// Credentials and region, found in `env` (a variable lookup) and the profile files.
#[derive(Debug, Clone)]
pub struct Found {
    /// The credentials.
    pub credentials: Credentials,
    /// The region, `us-east-1` when none is set (R2 and most other stores accept any).
    pub region: String,
}

/// Finds credentials and region as described in the module documentation.
pub fn find(env: &dyn Fn(&str) -> Option<String>) -> Result<Found> {
    let var = |name: &str| env(name).filter(|v| !v.trim().is_empty());
    let profile_name = var("AWS_PROFILE").unwrap_or_else(|| "default".to_owned());
    let home = var("HOME").map(PathBuf::from);
    let file = |variable: &str, default: &str| {
        var(variable)
            .map(PathBuf::from)
            .or_else(|| home.as_ref().map(|h| h.join(".aws").join(default)))
    };
    let read = |path: Option<PathBuf>, config: bool| -> HashMap<String, String> {
        path.and_then(|p| std::fs::read_to_string(p).ok())
            .map(|text| profile_section(&text, &profile_name, config))
            .unwrap_or_default()
    };
    let shared = read(file("AWS_SHARED_CREDENTIALS_FILE", "credentials"), false);
    let config = read(file("AWS_CONFIG_FILE", "config"), true);
    let from_profile = |key: &str| shared.get(key).or_else(|| config.get(key)).cloned();

    let region = var("AWS_REGION")
        .or_else(|| var("AWS_DEFAULT_REGION"))
        .or_else(|| from_profile("region"))
        .unwrap_or_else(|| "us-east-1".to_owned());
    let credentials = match (var("AWS_ACCESS_KEY_ID"), var("AWS_SECRET_ACCESS_KEY")) {
        (Some(key), Some(secret)) => Credentials {
            key,
            secret,
            token: var("AWS_SESSION_TOKEN"),
        },
        (Some(_), None) | (None, Some(_)) => bail!(
            "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together; one of them is missing"
        ),
        (None, None) => match (
            from_profile("aws_access_key_id"),
            from_profile("aws_secret_access_key"),
        ) {
            (Some(key), Some(secret)) => Credentials {
                key,
                secret,
                token: from_profile("aws_session_token"),
            },
            _ => bail!(
                "no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE \
                 naming a profile with aws_access_key_id in ~/.aws/credentials (profile \
                 {profile_name:?} has none)"
            ),
        },
    };
    Ok(Found {
        credentials,
        region,
    })
}

/// The `key = value` pairs of one profile of an AWS INI file: `[NAME]` in the credentials
/// file; `[profile NAME]` (or `[default]`) in the config file.
fn profile_section(text: &str, profile: &str, config: bool) -> HashMap<String, String> {
    let wanted = if config && profile != "default" {
        format!("profile {profile}")
    } else {
        profile.to_owned()
    };
    let mut inside = false;
    let mut values = HashMap::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with(['#', ';']) {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            inside = name.split_whitespace().collect::<Vec<_>>().join(" ") == wanted;
            continue;
        }
        if inside && let Some((key, value)) = line.split_once('=') {
            values.insert(key.trim().to_ascii_lowercase(), value.trim().to_owned());
        }
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    #[test]
    fn the_environment_comes_first() {
        let env = env_of(&[
            ("AWS_ACCESS_KEY_ID", "AKIDENV"),
            ("AWS_SECRET_ACCESS_KEY", "secret"),
            ("AWS_SESSION_TOKEN", "token"),
            ("AWS_DEFAULT_REGION", "eu-north-1"),
            ("HOME", "/nonexistent"),
        ]);
        let found = find(&env).expect("found");
        assert_eq!(found.credentials.key, "AKIDENV");
        assert_eq!(found.credentials.token.as_deref(), Some("token"));
        assert_eq!(found.region, "eu-north-1");
    }

    #[test]
    fn aws_profile_picks_a_profile_of_the_shared_files() {
        let dir = tempfile::tempdir().expect("temp dir");
        let aws = dir.path().join(".aws");
        std::fs::create_dir_all(&aws).expect("mkdir");
        std::fs::write(
            aws.join("credentials"),
            "[default]\naws_access_key_id = AKIDDEFAULT\naws_secret_access_key = s1\n\n\
             [ci]\naws_access_key_id = AKIDCI\naws_secret_access_key = s2\n",
        )
        .expect("write");
        std::fs::write(
            aws.join("config"),
            "[default]\nregion = us-west-2\n[profile ci]\nregion = eu-central-1\n",
        )
        .expect("write");
        let home = dir.path().to_string_lossy().into_owned();
        let pairs = [("HOME", home.as_str()), ("AWS_PROFILE", "ci")];
        let env = env_of(&pairs);
        let found = find(&env).expect("found");
        assert_eq!(found.credentials.key, "AKIDCI");
        assert_eq!(found.credentials.secret, "s2");
        assert_eq!(found.region, "eu-central-1");
        let pairs = [("HOME", home.as_str())];
        let env = env_of(&pairs);
        let found = find(&env).expect("found");
        assert_eq!(found.credentials.key, "AKIDDEFAULT");
        assert_eq!(found.region, "us-west-2");
    }

    #[test]
    fn missing_credentials_say_where_they_are_looked_for() {
        let env = env_of(&[("HOME", "/nonexistent"), ("AWS_PROFILE", "prod")]);
        let err = find(&env).expect_err("none");
        assert_eq!(
            err.to_string(),
            "no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE \
             naming a profile with aws_access_key_id in ~/.aws/credentials (profile \"prod\" \
             has none)"
        );
    }
}
