//! ROUGE-LSum speed.
fn main() {}
