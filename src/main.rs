//! Command line: parses arguments (clap) and dispatches to the GTP engine, the match runner or the benchmarks.

fn main() {
    println!("phantomgo: command line not wired yet");
}
