//! The site's bundle is a function of the site's files and packages, wherever it is built.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common;
use sitegen::bundle::{Prepared, prepare};
use sitegen::cache::Cache;

/// A cache inside the checkout, in a folder its `.gitignore` ignores (`target/`), makes the same
/// bundle as a cache elsewhere: Tailwind, which scans the folder Vite builds in for the site's
/// classes, once read the checkout's `.gitignore` above it and left every class out.
#[test]
fn a_bundle_built_in_an_ignored_folder_of_a_checkout_is_the_bundle_built_elsewhere()
-> anyhow::Result<()> {
    let elsewhere = tempfile::tempdir()?;
    common::seed_bundle(elsewhere.path())?;
    let inside = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR"))?;
    let cache = Cache::open(Some(inside.path()))?;
    let Prepared::ToBuild(build) = prepare(&Path::new(common::REPO).join("site"), &cache)? else {
        anyhow::bail!("a new cache has no bundle");
    };
    let bundle = build.run(&cache, true)?;
    let seeded = elsewhere
        .path()
        .join("bundles")
        .join(&bundle.hash)
        .join(bundle.sums_file().file_name().unwrap_or_default());
    // The browser's files of each bundle, by name with their hashes.
    let sums = |file: &Path| -> anyhow::Result<BTreeMap<String, String>> {
        Ok(serde_json::from_slice(&std::fs::read(file)?)?)
    };
    let (inside, elsewhere) = (sums(&bundle.sums_file())?, sums(&seeded)?);
    let differing: Vec<_> = inside
        .keys()
        .chain(elsewhere.keys())
        .filter(|name| inside.get(*name) != elsewhere.get(*name))
        .collect();
    assert_eq!(
        differing,
        Vec::<&String>::new(),
        "files only in one bundle, or differing"
    );
    Ok(())
}
