// Puts the version of the h2 crate the build resolved (from Cargo.lock)
// into H2_VERSION, for the encoder's name in the answer to hello.
use std::{env, fs, path::Path};

fn main() {
    let dir = env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    let lock = Path::new(&dir).join("Cargo.lock");
    println!("cargo:rerun-if-changed={}", lock.display());
    let text = fs::read_to_string(&lock)
        .unwrap_or_else(|e| panic!("reading {}: {}", lock.display(), e));
    let mut version = None;
    let mut in_h2 = false;
    for line in text.lines() {
        let line = line.trim();
        if line == "[[package]]" {
            in_h2 = false;
        } else if line == "name = \"h2\"" {
            in_h2 = true;
        } else if in_h2 && line.starts_with("version = \"") {
            version = Some(line["version = \"".len()..line.len() - 1].to_string());
            break;
        }
    }
    let version =
        version.unwrap_or_else(|| panic!("{} names no h2 package", lock.display()));
    println!("cargo:rustc-env=H2_VERSION={}", version);
}
