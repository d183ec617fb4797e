//! Writes the lab's exports to a folder, with the engine's own answers
//! beside them, for `scripts/check-real` to run on the real tools. What
//! goes in each folder, and the designs the checks run, are the export
//! room's (`partition_lab::export::checks`); this command only writes them.
//!
//! Usage: partition-lab-export <folder> | --pins

use std::path::Path;

use partition_lab::export::File;

fn write(root: &Path, files: &[File]) -> std::io::Result<()> {
    for f in files {
        let path = root.join(&f.path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(path, &f.text)?;
    }
    Ok(())
}

fn main() -> std::process::ExitCode {
    use std::process::ExitCode;
    let Some(out) = std::env::args().nth(1) else {
        eprintln!("usage: partition-lab-export <folder> | --pins");
        return ExitCode::from(2);
    };
    // The pins scripts/check-real installs, from the versions every label names.
    if out == "--pins" {
        print!("{}", partition_lab::export::pins());
        return ExitCode::SUCCESS;
    }
    let folders = match partition_lab::export::checks::folders() {
        Ok(folders) => folders,
        Err(why) => {
            eprintln!("{why}");
            return ExitCode::FAILURE;
        }
    };
    let root = Path::new(&out);
    for (dir, files) in folders {
        if let Err(e) = write(&root.join(dir), &files) {
            eprintln!("could not write {dir}: {e}");
            return ExitCode::FAILURE;
        }
        println!(
            "wrote {} to {}",
            partition_lab::counted::counted(files.len(), "file"),
            root.join(dir).display()
        );
    }
    ExitCode::SUCCESS
}
