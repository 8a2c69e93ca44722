//! `rdna isa --html`: the site opened in headless Chromium (Debian `chromium`). The DOM after
//! the page's scripts ran must show what `rdna isa NAME --json` says, and the search box must find
//! what `rdna isa --search` finds. Screenshots of two pages are left in `target/isa-site-shots/`
//! for people to look at.

use std::path::{Path, PathBuf};
use std::process::Command;

fn rdna(args: &[&str]) -> String {
    let r = Command::new(env!("CARGO_BIN_EXE_rdna")).args(args).output().unwrap();
    assert!(r.status.success(), "rdna {args:?}: {}", String::from_utf8_lossy(&r.stderr));
    String::from_utf8(r.stdout).unwrap()
}

fn chromium(args: &[&str]) -> String {
    let r = Command::new("chromium")
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--allow-file-access-from-files"])
        .args(args)
        .output()
        .expect("chromium runs (Debian package `chromium`; .ci/run installs it)");
    assert!(r.status.success(), "chromium {args:?}: {}", String::from_utf8_lossy(&r.stderr));
    String::from_utf8(r.stdout).unwrap()
}

fn url(path: &Path, query: &str) -> String {
    format!("file://{}{query}", path.display())
}

/// Text of the DOM with tags removed and entities decoded, for searching.
fn text_of(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                out.push(' ');
            }
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&amp;", "&")
}

#[test]
fn site_pages_and_search_work_in_chromium() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("isa-site");
    let _ = std::fs::remove_dir_all(&dir);
    let r = Command::new(env!("CARGO_BIN_EXE_rdna")).args(["isa", "--html"]).arg(&dir).args(["--arch", "rdna3"]).output().unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let arch = dir.join("gfx1100");

    // Pages: a fixed pair and a fresh sample.
    let mut names: Vec<String> = std::fs::read_dir(&arch)
        .unwrap()
        .filter_map(|e| e.unwrap().file_name().into_string().ok()?.strip_suffix(".html").map(String::from))
        .filter(|n| n != "index")
        .collect();
    names.sort();
    assert!(names.len() > 1000, "{}", names.len());
    let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as usize;
    let mut sample = vec!["v_add_f32".to_string(), "ds_condxchg32_rtn_b64".to_string()];
    for k in 0..4 {
        sample.push(names[(seed / (k + 1) + k * 7919) % names.len()].clone());
    }
    for name in &sample {
        let page: serde_json::Value = serde_json::from_str(&rdna(&["isa", name, "--arch", "rdna3", "--json"])).unwrap();
        let dom = chromium(&["--dump-dom", &url(&arch.join(format!("{name}.html")), "")]);
        let text = text_of(&dom);
        assert!(dom.contains(&format!("<h1>{name}</h1>")), "{name}: heading");
        assert!(text.contains(page["description"].as_str().unwrap()), "{name}: description");
        assert!(text.contains(page["behaviour"]["text"].as_str().unwrap()), "{name}: behaviour");
        for t in page["targets"].as_array().unwrap() {
            assert!(text.contains(t.as_str().unwrap()), "{name}: target {t}");
        }
        for e in page["encodings"].as_array().unwrap() {
            assert!(text.contains(e["identifier"].as_str().unwrap()), "{name}: identifier");
            assert!(text.contains(&format!("{} ({:#x})", e["opcode"], e["opcode"].as_u64().unwrap())), "{name}: opcode");
            for seg in e["layout"].as_array().unwrap() {
                let (hi, lo) = (seg["hi"].as_u64().unwrap(), seg["lo"].as_u64().unwrap());
                // Segments split at dword boundaries; each part's range is shown.
                let shown = if hi / 32 == lo / 32 {
                    if hi == lo { format!("{hi}") } else { format!("{hi}:{lo}") }
                } else {
                    format!("{}:{lo}", (lo / 32) * 32 + 31)
                };
                assert!(text.contains(&shown) && text.contains(seg["name"].as_str().unwrap()), "{name}: layout {seg}");
            }
            if let Some(x) = e["example"].as_object() {
                assert!(text.contains(x["text"].as_str().unwrap()), "{name}: example");
            }
        }
        // Links to the other generations' pages exist only for generated ones: none here.
        assert!(!dom.contains("href=\"../gfx1030/"), "{name}: link to a generation not generated");
    }

    // The search box finds what `rdna isa --search` finds.
    for query in ["atomic add", "f16 fma", "load b128", "compare exec"] {
        let cli = rdna(&["isa", "--search", query, "--arch", "rdna3"]).lines().count();
        let dom = chromium(&["--dump-dom", &url(&arch.join("index.html"), &format!("?q={}", query.replace(' ', "+")))]);
        let shown = dom.split("<li ").skip(1).filter(|li| li.starts_with("data-text=") && !li[..li.find('>').unwrap()].contains("class=\"hidden\"")).count();
        assert_eq!(shown, cli, "search '{query}'");
        assert!(dom.contains(&format!("{cli} instructions")), "search '{query}': count shown");
    }

    // Screenshots for people to look at.
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("../isa-site-shots");
    std::fs::create_dir_all(&shots).unwrap();
    for (name, file) in [("v_add_f32.html", "v_add_f32.png"), ("index.html?q=atomic+add", "search.png")] {
        let out = shots.join(file);
        let (page, query) = name.split_once('?').map_or((name, String::new()), |(p, q)| (p, format!("?{q}")));
        chromium(&[&format!("--screenshot={}", out.display()), "--window-size=1200,1600", &url(&arch.join(page), &query)]);
        assert!(std::fs::metadata(&out).unwrap().len() > 10_000, "{file}");
    }
}
