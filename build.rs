//! Rebuild when a bundled ruleset or tile catalogue is added, removed or changed: they are
//! embedded in the binary (`src/dsl/bundled.rs`).
fn main() {
    println!("cargo:rerun-if-changed=rulesets");
    println!("cargo:rerun-if-changed=rulesets/tiles");
}
