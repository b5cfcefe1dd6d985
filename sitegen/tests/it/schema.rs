//! The site's TypeScript types are generated from the Rust content model; this fails when the
//! checked-in `site/schema/` no longer matches what the model generates.

use std::collections::BTreeMap;
use std::path::Path;

fn read_ts(dir: &Path) -> BTreeMap<String, String> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|e| e.path().extension().is_some_and(|x| x == "ts"))
                .map(|e| {
                    let text = std::fs::read_to_string(e.path()).expect("read .ts");
                    (e.file_name().to_string_lossy().into_owned(), text)
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn checked_in_typescript_types_match_the_rust_model() {
    let fresh = tempfile::tempdir().expect("tempdir");
    sitegen::schema::write_typescript(fresh.path()).expect("generate");
    let generated = read_ts(fresh.path());
    assert!(
        generated.contains_key("SiteContent.ts"),
        "{:?}",
        generated.keys()
    );

    let checked_in = read_ts(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../site/schema"));
    let stale: Vec<&String> = generated
        .keys()
        .chain(checked_in.keys())
        .filter(|name| generated.get(*name) != checked_in.get(*name))
        .collect();
    assert!(
        stale.is_empty(),
        "site/schema is stale ({stale:?} differ): run `make schema` and commit the result"
    );
}
