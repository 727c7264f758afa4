//! Checks that keep the workspace's structure and its docs honest: no module of any crate
//! imports, directly or around a circle, a module that imports it back; every `dbce` subcommand
//! the docs name exists; and every crate says in its crate doc what it is for and has its section
//! in docs/ARCHITECTURE.md.

#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a source file (`a/b.rs` → `a::b`; `lib.rs`, `main.rs`, `mod.rs` name
/// their folder).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("lib" | "main" | "mod")
    ) {
        parts.pop();
    }
    parts
}

/// The identifiers after each `crate::` and `super::` in `code` (comments and tests left out),
/// resolved to the longest known module path.
fn references(code: &str, module: &[String], modules: &BTreeSet<Vec<String>>) -> Vec<Vec<String>> {
    let code = code.split("#[cfg(test)]").next().unwrap_or_default();
    let mut found = Vec::new();
    for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
        for (prefix, base) in [
            ("crate::", Vec::new()),
            ("super::", module[..module.len().saturating_sub(1)].to_vec()),
        ] {
            for (start, _) in line.match_indices(prefix) {
                if line[..start].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                let mut path = base.clone();
                let mut best = None;
                for segment in line[start + prefix.len()..]
                    .split("::")
                    .map(|s| s.split(|c: char| !(c.is_alphanumeric() || c == '_')).next())
                {
                    let Some(segment) = segment.filter(|s| !s.is_empty()) else {
                        break;
                    };
                    path.push(segment.to_owned());
                    if modules.contains(&path) {
                        best = Some(path.clone());
                    }
                }
                found.extend(best);
            }
        }
    }
    found
}

/// A circle in `edges`, if there is one.
fn find_circle(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Option<Vec<Vec<String>>> {
    fn visit(
        node: &Vec<String>,
        edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        state: &mut BTreeMap<Vec<String>, u8>,
        stack: &mut Vec<Vec<String>>,
    ) -> Option<Vec<Vec<String>>> {
        state.insert(node.clone(), 1);
        stack.push(node.clone());
        for next in edges.get(node).into_iter().flatten() {
            match state.get(next) {
                Some(1) => {
                    let from = stack.iter().position(|n| n == next).unwrap();
                    return Some(stack[from..].to_vec());
                }
                Some(_) => {}
                None => {
                    if let Some(circle) = visit(next, edges, state, stack) {
                        return Some(circle);
                    }
                }
            }
        }
        stack.pop();
        state.insert(node.clone(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in edges.keys() {
        if !state.contains_key(node)
            && let Some(circle) = visit(node, edges, &mut state, &mut Vec::new())
        {
            return Some(circle);
        }
    }
    None
}

#[test]
fn no_crate_has_an_import_circle_between_its_modules() {
    let crates = workspace().join("crates");
    let mut checked = 0;
    for entry in std::fs::read_dir(&crates).unwrap() {
        let src = entry.unwrap().path().join("src");
        if !src.is_dir() {
            continue;
        }
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(&src, f)).collect();
        let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
        for file in &files {
            let module = module_of(&src, file);
            let code = std::fs::read_to_string(file).unwrap();
            for target in references(&code, &module, &modules) {
                // A module's own parts and its ancestors are its structure, not an import.
                if !module.starts_with(&target) && !target.starts_with(&module) {
                    edges.entry(module.clone()).or_default().insert(target);
                }
            }
        }
        if let Some(circle) = find_circle(&edges) {
            let names: Vec<String> = circle.iter().map(|m| m.join("::")).collect();
            panic!("{}: import circle {}", src.display(), names.join(" -> "));
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} crates found");
}

#[test]
fn the_circle_finder_finds_circles() {
    let m = |s: &str| vec![s.to_owned()];
    let mut edges = BTreeMap::new();
    edges.insert(m("a"), BTreeSet::from([m("b")]));
    edges.insert(m("b"), BTreeSet::from([m("c")]));
    assert!(find_circle(&edges).is_none());
    edges.insert(m("c"), BTreeSet::from([m("a")]));
    assert_eq!(find_circle(&edges).unwrap().len(), 3);
    let modules = BTreeSet::from([m("a"), vec!["a".into(), "b".into()], m("c")]);
    assert_eq!(
        references("use crate::a::b::Thing;\nuse super::c;", &m("x"), &modules),
        [vec!["a".to_owned(), "b".to_owned()], m("c")]
    );
}

#[test]
fn every_subcommand_the_docs_name_exists() {
    let help = Command::new(env!("CARGO_BIN_EXE_dbce"))
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    let commands: BTreeSet<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(commands.contains("run"), "{help}");
    let mut docs = vec![workspace().join("README.md")];
    for entry in std::fs::read_dir(workspace().join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            docs.push(path);
        }
    }
    let mut named = 0;
    for doc in docs {
        let text = std::fs::read_to_string(&doc).unwrap();
        let mut in_code = false;
        for line in text.lines() {
            if line.trim_start().starts_with("```") {
                in_code = !in_code;
                continue;
            }
            if !in_code {
                continue;
            }
            // A shell line that runs `dbce SUBCOMMAND` (after any `VAR=value`), or
            // `cargo run ... -p dbce -- SUBCOMMAND`.
            let words: Vec<&str> = line
                .split_whitespace()
                .skip_while(|w| *w == "$" || w.contains('='))
                .collect();
            let command = match words.as_slice() {
                [first, command, ..] if *first == "dbce" || first.ends_with("/dbce") => {
                    Some(*command)
                }
                ["cargo", "run", rest @ ..] => rest
                    .iter()
                    .position(|w| *w == "--")
                    .filter(|&i| rest[..i].contains(&"dbce"))
                    .and_then(|i| rest.get(i + 1).copied()),
                _ => None,
            };
            if let Some(command) = command.filter(|c| {
                !c.starts_with('-') && c.chars().all(|c| c.is_ascii_lowercase() || c == '-')
            }) {
                assert!(
                    commands.contains(command),
                    "{} names `dbce {command}`, which `dbce --help` does not list ({commands:?})",
                    doc.display()
                );
                named += 1;
            }
        }
    }
    assert!(named > 10, "only {named} commands found in the docs");
}

#[test]
fn every_crate_says_why_it_exists_and_has_its_section_in_the_architecture() {
    let architecture = std::fs::read_to_string(workspace().join("docs/ARCHITECTURE.md")).unwrap();
    let mut crates = 0;
    for entry in std::fs::read_dir(workspace().join("crates")).unwrap() {
        let dir = entry.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let root = ["src/lib.rs", "src/main.rs"]
            .iter()
            .map(|file| dir.join(file))
            .find(|path| path.exists());
        // The fuzz targets are a workspace of their own, without a crate root of this kind.
        let Some(root) = root else { continue };
        crates += 1;
        let code = std::fs::read_to_string(&root).unwrap();
        let first = code.lines().next().unwrap_or_default();
        assert!(
            first.starts_with("//! ") && first.len() > 20,
            "{}: the crate doc's first line says what the crate is for",
            root.display()
        );
        assert!(
            architecture
                .lines()
                .any(|l| l.starts_with('#') && l.contains(&format!("`{name}`"))),
            "docs/ARCHITECTURE.md has no section on {name}"
        );
    }
    assert!(crates >= 18, "{crates} crates found");
}
