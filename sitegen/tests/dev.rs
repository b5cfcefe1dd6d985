//! `sitegen dev` refuses a port in use with one clear line, before starting anything. (The dev
//! server itself is tested in a browser: site/tests-dev/.)

use std::net::TcpListener;
use std::process::Command;

#[test]
fn a_port_in_use_gives_one_clear_line() {
    let taken = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = taken.local_addr().expect("addr").port();
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let out = Command::new(env!("CARGO_BIN_EXE_sitegen"))
        .current_dir(root)
        .args(["dev", "--port", &port.to_string()])
        .output()
        .expect("run sitegen dev");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.trim_end(),
        format!(
            "error: port {port} on 127.0.0.1 is already in use: stop what uses it, or start `sitegen dev` with --port N"
        )
    );
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
