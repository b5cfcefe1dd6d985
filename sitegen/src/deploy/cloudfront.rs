//! `--invalidate cloudfront:DISTRIBUTION_ID`: after a deploy, CloudFront forgets exactly the
//! paths whose objects changed (a page's directory URL with it), or everything (`/*`) past
//! [`MAX_PATHS`]. The API's address is `AWS_ENDPOINT_URL_CLOUDFRONT` when set.

use std::str::FromStr;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Result, anyhow, bail};

use super::credentials::Credentials;
use super::plan::Plan;
use super::sigv4::{self, Service};

/// Past this many changed paths one wildcard is invalidated: CloudFront bills each path.
pub const MAX_PATHS: usize = 100;

const API: &str = "https://cloudfront.amazonaws.com";
const VERSION: &str = "2020-05-31";

/// A CloudFront distribution, from `cloudfront:ID`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Distribution {
    /// The distribution's id (`E2QWRUHAPOMQZL`).
    pub id: String,
    /// The API's address.
    pub endpoint: String,
}

impl FromStr for Distribution {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let id = text
            .strip_prefix("cloudfront:")
            .ok_or_else(|| format!("{text:?} names no CDN; write cloudfront:DISTRIBUTION_ID"))?;
        if id.is_empty() || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(format!(
                "{id:?} is not a CloudFront distribution id (letters and digits, like E2QWRUHAPOMQZL)"
            ));
        }
        let endpoint = std::env::var("AWS_ENDPOINT_URL_CLOUDFRONT")
            .ok()
            .filter(|e| !e.is_empty())
            .unwrap_or_else(|| API.to_owned());
        Ok(Self {
            id: id.to_owned(),
            endpoint: endpoint.trim_end_matches('/').to_owned(),
        })
    }
}

/// The URL paths whose cached copies are stale after `plan`: every uploaded or deleted
/// object's path below the prefix, and for an `index.html` its directory URL (`/about/`);
/// `/*` alone when there are more than [`MAX_PATHS`].
pub fn changed_paths(plan: &Plan<'_>, prefix: &str) -> Vec<String> {
    let keys = plan
        .uploads
        .iter()
        .map(|u| u.key.as_str())
        .chain(plan.deletions.iter().map(String::as_str));
    let mut paths = Vec::new();
    for key in keys {
        let file = key.strip_prefix(prefix).unwrap_or(key);
        paths.push(format!("/{file}"));
        if let Some(dir) = file.strip_suffix("index.html") {
            paths.push(format!("/{dir}"));
        }
    }
    paths.sort();
    paths.dedup();
    if paths.len() > MAX_PATHS {
        vec!["/*".to_owned()]
    } else {
        paths
    }
}

impl Distribution {
    /// Asks CloudFront to invalidate `paths`.
    pub fn invalidate(&self, paths: &[String], credentials: &Credentials) -> Result<()> {
        let items: String = paths
            .iter()
            .map(|p| format!("<Path>{}</Path>", xml_escape(p)))
            .collect();
        let reference = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let body = format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\
             <InvalidationBatch xmlns=\"http://cloudfront.amazonaws.com/doc/{VERSION}/\">\
             <Paths><Quantity>{}</Quantity><Items>{items}</Items></Paths>\
             <CallerReference>sitegen-{reference}</CallerReference></InvalidationBatch>",
            paths.len()
        );
        let path = format!("/{VERSION}/distribution/{}/invalidation", self.id);
        let url = url::Url::parse(&format!("{}{path}", self.endpoint))
            .map_err(|e| anyhow!("CloudFront endpoint {:?}: {e}", self.endpoint))?;
        let headers = [("content-type", "application/xml")];
        let request = sigv4::Request {
            method: "POST",
            url: url.as_str(),
            headers: &headers,
            body: body.as_bytes(),
        };
        let signature = sigv4::headers(
            Service::CloudFront,
            "us-east-1",
            credentials,
            request,
            SystemTime::now(),
        )
        .map_err(|e| anyhow!("invalidating CloudFront distribution {}: {e}", self.id))?;
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        let mut post = agent
            .post(url.as_str())
            .header("content-type", "application/xml");
        for (name, value) in &signature {
            post = post.header(name, value);
        }
        let response = post.send(body.as_bytes()).map_err(|e| {
            anyhow!(
                "invalidating {} paths of CloudFront distribution {}: no answer: {e}",
                paths.len(),
                self.id
            )
        })?;
        let status = response.status().as_u16();
        if !(200..300).contains(&status) {
            let text = response.into_body().read_to_string().unwrap_or_default();
            let message = text
                .split("<Message>")
                .nth(1)
                .and_then(|m| m.split("</Message>").next())
                .unwrap_or(text.trim());
            bail!(
                "invalidating {} paths of CloudFront distribution {}: CloudFront answered \
                 {status}: {message}; the objects are deployed, the CDN may serve old copies \
                 until they expire",
                paths.len(),
                self.id
            );
        }
        Ok(())
    }
}

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deploy::local::{LocalObject, Phase};
    use crate::deploy::plan::{Reason, Upload};

    #[test]
    fn changed_pages_invalidate_their_directory_url_and_many_become_a_wildcard() {
        let object = |file: &str| LocalObject {
            file: file.into(),
            source: file.into(),
            encoding: None,
            content_type: String::new(),
            cache_control: None,
            md5: String::new(),
            len: 0,
            phase: Phase::Pages,
            redirect: None,
        };
        let about = object("about/index.html");
        let plan = Plan {
            uploads: vec![Upload {
                object: &about,
                key: "site/about/index.html".into(),
                reason: Reason::Changed,
            }],
            unchanged: 0,
            deletions: vec!["site/old/index.html".into()],
        };
        assert_eq!(
            changed_paths(&plan, "site/"),
            ["/about/", "/about/index.html", "/old/", "/old/index.html"]
        );
        let many: Vec<String> = (0..=MAX_PATHS).map(|i| format!("site/p{i}.html")).collect();
        let plan = Plan {
            deletions: many,
            ..Plan::default()
        };
        assert_eq!(changed_paths(&plan, "site/"), ["/*"]);
        assert!("cloudfront:".parse::<Distribution>().is_err());
        assert_eq!(
            "fastly:abc"
                .parse::<Distribution>()
                .expect_err("not cloudfront"),
            "\"fastly:abc\" names no CDN; write cloudfront:DISTRIBUTION_ID"
        );
    }
}
