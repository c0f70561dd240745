fn main() {
    let mut b = cc::Build::new();
    b.file("csrc/sum.c");
    if std::env::var("UKASAN_BUG").as_deref() == Ok("1") {
        b.define("BUG", "1");
    }
    b.compile("sum");
    println!("cargo:rerun-if-changed=csrc/sum.c");
    println!("cargo:rerun-if-env-changed=UKASAN_BUG");
}
