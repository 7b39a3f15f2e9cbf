//! The shape of `src/status/`, read from its sources: no import circle between its
//! modules, the pocket game a leaf, and a reading guide that names every file.
//!
//! A module is a file. It uses another when its code (tests and doc-only imports aside)
//! names a path into it: `crate::status::...`, `super::...` or `self::...`, in a `use`
//! line or inline. A folder's `mod.rs` stands for the items it declares itself; a path
//! through it to one of its files is a use of that file. Test code may reach up to the
//! public entry to check end to end, so it does not count.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The status/ folder of this crate.
fn status_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/status")
}

/// Every `.rs` file under `dir`, relative to the status folder (`pocket/game.rs`).
fn sources(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            sources(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            out.push(rel);
        }
    }
}

/// The module path of a file, from the status folder: `pocket/game.rs` is `[pocket, game]`,
/// `pocket/mod.rs` is `[pocket]`, `mod.rs` is `[]`.
fn module_of(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file
        .trim_end_matches(".rs")
        .split('/')
        .map(String::from)
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The file a module path (from the status folder) lands in: the deepest file module
/// along it; the rest of the path names items inside that file.
fn file_of(root: &Path, path: &[String]) -> String {
    let mut dir = PathBuf::new();
    for seg in path {
        if root.join(&dir).join(seg).join("mod.rs").is_file() {
            dir = dir.join(seg);
        } else if root.join(&dir).join(format!("{seg}.rs")).is_file() {
            return dir
                .join(format!("{seg}.rs"))
                .to_string_lossy()
                .replace('\\', "/");
        } else {
            break;
        }
    }
    dir.join("mod.rs").to_string_lossy().replace('\\', "/")
}

/// The lines of a source that are production code: `#[cfg(test)]` items and
/// `#[cfg(doc)]` imports dropped, comments dropped. Also the test-only child modules
/// it declares (`#[cfg(test)] mod testing;`).
fn production_lines(text: &str) -> (Vec<String>, Vec<String>) {
    let lines: Vec<&str> = text.lines().collect();
    let (mut out, mut test_children) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim_start();
        if line.starts_with("#[cfg(test)]") || line.starts_with("#[cfg(doc)]") {
            let item = lines.get(i + 1).copied().unwrap_or("");
            let indent = item.len() - item.trim_start().len();
            let item = item.trim();
            if let Some(name) = item
                .strip_prefix("pub(crate) mod ")
                .or_else(|| item.strip_prefix("mod "))
                .and_then(|rest| rest.strip_suffix(';'))
            {
                test_children.push(name.to_string());
                i += 2;
            } else if item.ends_with('{') {
                // Skip to the closing brace at the item's indentation.
                i += 2;
                while i < lines.len() {
                    let l = lines[i];
                    if l.trim() == "}" && l.len() - l.trim_start().len() == indent {
                        break;
                    }
                    i += 1;
                }
                i += 1;
            } else {
                // One item (a `use` line, possibly over several lines up to its `;`).
                i += 1;
                while i < lines.len() && !lines[i].contains(';') {
                    i += 1;
                }
                i += 1;
            }
            continue;
        }
        let code = match line.find("//") {
            Some(k) => &line[..k],
            None => line,
        };
        out.push(code.to_string());
        i += 1;
    }
    (out, test_children)
}

/// Every path into status/ that `code` names, as module paths from the status folder,
/// for a file whose module is `here`.
fn paths_named(code: &str, here: &[String], is_mod_rs: bool) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut k = 0;
    while k < bytes.len() {
        if k > 0 && (ident(bytes[k - 1]) || bytes[k - 1] == b':') {
            k += 1;
            continue;
        }
        let rest = &code[k..];
        let (base, after): (Vec<String>, &str) =
            if let Some(r) = rest.strip_prefix("crate::status::") {
                (Vec::new(), r)
            } else if rest.starts_with("super::") || rest.starts_with("self::") {
                // `self` of a file is its module; of a mod.rs, its folder. `super` goes one up.
                let mut base: Vec<String> = here.to_vec();
                let mut r = rest;
                if let Some(x) = r.strip_prefix("self::") {
                    r = x;
                } else {
                    while let Some(x) = r.strip_prefix("super::") {
                        if base.pop().is_none() {
                            return out; // outside status/
                        }
                        r = x;
                    }
                }
                let _ = is_mod_rs;
                (base, r)
            } else {
                k += 1;
                continue;
            };
        // The path's segments; a `{` group adds each of its first names.
        let mut segs = base;
        let mut r = after;
        loop {
            let end = r
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(r.len());
            if end > 0 {
                segs.push(r[..end].to_string());
            }
            r = &r[end..];
            if let Some(x) = r.strip_prefix("::") {
                r = x;
                if let Some(group) = r.strip_prefix('{') {
                    let close = group.find('}').unwrap_or(group.len());
                    for name in group[..close].split(',') {
                        let name = name.trim().split("::").next().unwrap_or("").trim();
                        if !name.is_empty() && name != "self" {
                            let mut p = segs.clone();
                            p.push(name.to_string());
                            out.push(p);
                        }
                    }
                    break;
                }
            } else {
                break;
            }
        }
        out.push(segs);
        k += 1;
    }
    out
}

/// The module graph of status/: file to the files it uses, and the files that are test
/// code only.
fn graph() -> (BTreeMap<String, BTreeSet<String>>, BTreeSet<String>) {
    let root = status_dir();
    let mut files = Vec::new();
    sources(&root, &root, &mut files);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut test_only = BTreeSet::new();
    for file in &files {
        let text = fs::read_to_string(root.join(file)).unwrap();
        let (code, test_children) = production_lines(&text);
        let dir = Path::new(file).parent().unwrap_or(Path::new(""));
        let folder = if file.ends_with("mod.rs") {
            dir.to_path_buf()
        } else {
            dir.join(Path::new(file).file_stem().unwrap())
        };
        for child in test_children {
            for name in [
                folder.join(format!("{child}.rs")),
                folder.join(&child).join("mod.rs"),
            ] {
                test_only.insert(name.to_string_lossy().replace('\\', "/"));
            }
        }
        let here = module_of(file);
        let used = edges.entry(file.clone()).or_default();
        for line in code {
            // A `use` path that starts with a module's own name is relative to this file.
            let line = match ["use ", "pub use ", "pub(crate) use "]
                .iter()
                .find_map(|u| line.strip_prefix(u))
            {
                Some(path)
                    if !["crate::", "super::", "self::", "std::", "core::"]
                        .iter()
                        .any(|p| path.starts_with(p)) =>
                {
                    format!("use self::{path}")
                }
                _ => line,
            };
            for path in paths_named(&line, &here, file.ends_with("mod.rs")) {
                let target = file_of(&root, &path);
                if &target != file {
                    used.insert(target);
                }
            }
        }
    }
    for file in &test_only {
        edges.remove(file);
    }
    for used in edges.values_mut() {
        used.retain(|f| !test_only.contains(f));
    }
    (edges, test_only)
}

/// A circle of the graph, if there is one (depth-first search).
fn find_circle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        line: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match state.get(node) {
            Some(2) => return None,
            Some(1) => {
                let start = line.iter().position(|n| n == node).unwrap();
                let mut circle = line[start..].to_vec();
                circle.push(node.to_string());
                return Some(circle);
            }
            _ => {}
        }
        state.insert(node.to_string(), 1);
        line.push(node.to_string());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(c) = visit(next, edges, state, line) {
                return Some(c);
            }
        }
        line.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in edges.keys() {
        if let Some(c) = visit(node, edges, &mut state, &mut Vec::new()) {
            return Some(c);
        }
    }
    None
}

#[test]
fn status_modules_have_no_import_circle() {
    let (edges, _) = graph();
    assert!(edges.len() >= 20, "{} modules read", edges.len());
    // The reader sees the uses it must: a file that uses another through `super::`, a
    // `crate::status::` path and a folder's re-export.
    assert!(
        edges["pocket/dfpn.rs"].contains("pocket/depth_first.rs"),
        "{:?}",
        edges["pocket/dfpn.rs"]
    );
    assert!(edges["count/confirm.rs"].contains("walls/credit.rs"));
    assert!(edges["mod.rs"].contains("count/confirm.rs"));
    if let Some(circle) = find_circle(&edges) {
        panic!("import circle in status/: {}", circle.join(" -> "));
    }
}

#[test]
fn the_circle_check_finds_a_circle() {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    edges
        .entry("a.rs".into())
        .or_default()
        .insert("b/mod.rs".into());
    edges
        .entry("b/mod.rs".into())
        .or_default()
        .insert("b/c.rs".into());
    edges
        .entry("b/c.rs".into())
        .or_default()
        .insert("a.rs".into());
    assert_eq!(
        find_circle(&edges).unwrap(),
        ["a.rs", "b/mod.rs", "b/c.rs", "a.rs"]
    );
    edges.get_mut("b/c.rs").unwrap().clear();
    assert_eq!(find_circle(&edges), None);
    // `super::` from a file of a folder names its sibling; a group names each item.
    let here = module_of("pocket/dfpn.rs");
    assert_eq!(
        paths_named("use super::game::{key, PocketGame};", &here, false),
        [
            vec!["pocket", "game", "key"],
            vec!["pocket", "game", "PocketGame"],
            vec!["pocket", "game"]
        ]
    );
}

#[test]
fn the_pocket_game_is_a_leaf() {
    // The pocket game and its provers use nothing of status/ outside their folder but the
    // limits.
    let (edges, _) = graph();
    for (file, used) in edges.iter().filter(|(f, _)| f.starts_with("pocket/")) {
        for target in used {
            assert!(
                target.starts_with("pocket/") || target == "limits.rs",
                "{file} uses {target}"
            );
        }
    }
}

#[test]
fn the_reading_guide_names_every_file() {
    let root = status_dir();
    let guide = fs::read_to_string(root.join("mod.rs")).unwrap();
    let mut files = Vec::new();
    sources(&root, &root, &mut files);
    for file in files.iter().filter(|f| *f != "mod.rs") {
        let path = Path::new(file);
        let named = if file.ends_with("/mod.rs") {
            format!("`{}/`", path.parent().unwrap().to_string_lossy())
        } else {
            format!("`{}`", path.file_name().unwrap().to_string_lossy())
        };
        assert!(
            guide.contains(&named),
            "status/mod.rs's reading guide does not name {file}"
        );
    }
}

#[test]
fn status_folders_have_no_import_circle() {
    // Each folder (and each file at the top of status/) taken as one module: a folder
    // uses only those before it in the reading guide's order.
    let (edges, _) = graph();
    let top = |f: &str| {
        f.split('/')
            .next()
            .unwrap()
            .trim_end_matches(".rs")
            .to_string()
    };
    let mut folders: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (file, used) in edges.iter().filter(|(f, _)| *f != "mod.rs") {
        let from = top(file);
        let into = folders.entry(from.clone()).or_default();
        into.extend(
            used.iter()
                .map(|t| top(t))
                .filter(|t| *t != from && t != "mod"),
        );
    }
    assert!(folders["walls"].contains("pocket"), "{folders:?}");
    if let Some(circle) = find_circle(&folders) {
        panic!(
            "import circle between status/ folders: {}",
            circle.join(" -> ")
        );
    }
}
