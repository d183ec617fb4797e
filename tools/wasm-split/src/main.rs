//! `partition-lab-wasm-split <input.wasm> <out-dir> <link-name> <main-module>`
//!
//! Writes `<out-dir>/main.wasm` (for wasm-bindgen), each chunk beside it
//! and the loader at `<out-dir>/<link-name>`. The main module imports the
//! loader by `<link-name>`; the loader imports `initSync` from
//! `<main-module>`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // scripts/setup reinstalls the tool when this differs from its sources' hash.
    if args.first().is_some_and(|a| a == "--stamp") {
        println!(
            "{}",
            option_env!("PARTITION_LAB_SPLIT_STAMP").unwrap_or("none")
        );
        return ExitCode::SUCCESS;
    }
    let [input, out_dir, link_name, main_module] = args.as_slice() else {
        eprintln!(
            "usage: partition-lab-wasm-split <input.wasm> <out-dir> <link-name> <main-module>"
        );
        return ExitCode::from(2);
    };
    match split(Path::new(input), Path::new(out_dir), link_name, main_module) {
        Ok(chunks) => {
            for chunk in chunks {
                println!("{}", chunk.display());
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: splitting {input}: {error:?}");
            ExitCode::FAILURE
        }
    }
}

fn split(
    input: &Path,
    out_dir: &Path,
    link_name: &str,
    main_module: &str,
) -> Result<Vec<PathBuf>, Box<dyn std::error::Error>> {
    let wasm = std::fs::read(input)?;
    let main_out = out_dir.join("main.wasm");
    let mut options = wasm_split_cli_support::Options::new(&wasm);
    options.output_dir = out_dir;
    options.main_out_path = &main_out;
    options.link_name = link_name;
    options.main_module = main_module;
    let split = wasm_split_cli_support::transform(options)?;
    Ok(split.split_modules)
}
