//! What the suite measured: one row per figure (rdna's number, the peer's from the same run, the
//! ratio, the aim), printed as a table and written as TSV; and the curves of cost against input
//! size, drawn as one SVG.

use std::fmt::Write as _;

/// One figure.
pub struct Figure {
    pub section: &'static str,
    pub what: String,
    pub ours: f64,
    pub unit: &'static str,
    /// The peer's number in the same unit, and what the peer is.
    pub peer: Option<(String, f64)>,
    /// Whether a larger number is better (throughput) or worse (time).
    pub higher_is_better: bool,
    pub aim: Option<String>,
}

impl Figure {
    /// How many times better rdna's number is than the peer's (above 1: rdna is ahead).
    pub fn ratio(&self) -> Option<f64> {
        let (_, p) = self.peer.as_ref()?;
        if *p <= 0.0 || self.ours <= 0.0 {
            return None;
        }
        Some(if self.higher_is_better { self.ours / p } else { p / self.ours })
    }
}

/// A series of (x, y) points to draw.
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    /// Drawn as a line (a curve) or as dots (one point per kernel).
    pub line: bool,
}

/// One chart: a title, axis labels and its series.
pub struct Chart {
    pub title: String,
    pub x: &'static str,
    pub y: &'static str,
    pub series: Vec<Series>,
}

#[derive(Default)]
pub struct Report {
    pub figures: Vec<Figure>,
    pub charts: Vec<Chart>,
    pub notes: Vec<String>,
}

fn num(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else if v.abs() >= 10.0 {
        format!("{v:.1}")
    } else if v.abs() >= 0.1 {
        format!("{v:.2}")
    } else {
        format!("{v:.4}")
    }
}

impl Report {
    pub fn add(&mut self, f: Figure) {
        println!("  {:<58} {:>12} {:<16} {}", f.what, num(f.ours), f.unit, f.peer.as_ref().map_or(String::new(), |(n, v)| format!("peer {n}: {}", num(*v))));
        self.figures.push(f);
    }

    /// The table of every figure, in Markdown (BENCHMARKS.md takes it as it is).
    pub fn table(&self) -> String {
        let mut s = String::from("| section | figure | rdna | peer (same run) | ratio (rdna ÷ peer, >1 = rdna ahead) | aim |\n|---|---|---:|---|---:|---|\n");
        for f in &self.figures {
            let peer = f.peer.as_ref().map_or("—".to_string(), |(n, v)| format!("{} {} ({n})", num(*v), f.unit));
            let ratio = f.ratio().map_or("—".into(), |r| format!("{}×", num(r)));
            let _ = writeln!(s, "| {} | {} | {} {} | {peer} | {ratio} | {} |", f.section, f.what, num(f.ours), f.unit, f.aim.as_deref().unwrap_or(""));
        }
        s
    }

    pub fn tsv(&self) -> String {
        let mut s = String::from("section\tfigure\trdna\tunit\tpeer\tpeer_value\tratio\taim\n");
        for f in &self.figures {
            let (pn, pv) = f.peer.as_ref().map_or((String::new(), String::new()), |(n, v)| (n.clone(), format!("{v}")));
            let _ = writeln!(s, "{}\t{}\t{}\t{}\t{pn}\t{pv}\t{}\t{}", f.section, f.what, f.ours, f.unit, f.ratio().map_or(String::new(), |r| format!("{r}")), f.aim.as_deref().unwrap_or(""));
        }
        s
    }

    /// Every chart side by side in one SVG, on linear axes from zero (a straight line through
    /// the origin is cost proportional to size).
    pub fn svg(&self) -> String {
        const W: f64 = 460.0;
        const H: f64 = 320.0;
        const COLORS: [&str; 6] = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];
        let cols = self.charts.len().clamp(1, 2);
        let rows = self.charts.len().div_ceil(cols).max(1);
        let mut s = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
            W * cols as f64,
            H * rows as f64
        );
        for (i, c) in self.charts.iter().enumerate() {
            let (ox, oy) = ((i % cols) as f64 * W, (i / cols) as f64 * H);
            let (l, r, t, b) = (ox + 62.0, ox + W - 16.0, oy + 34.0, oy + H - 44.0);
            let xmax = nice_max(c.series.iter().flat_map(|s| s.points.iter().map(|p| p.0)).fold(0.0, f64::max));
            let ymax = nice_max(c.series.iter().flat_map(|s| s.points.iter().map(|p| p.1)).fold(0.0, f64::max));
            let px = |x: f64| l + (r - l) * x / xmax;
            let py = |y: f64| b - (b - t) * y / ymax;
            let _ = writeln!(s, "<text x=\"{}\" y=\"{}\" font-size=\"13\" font-weight=\"bold\">{}</text>", l, oy + 20.0, esc(&c.title));
            for k in 0..=4 {
                let (xv, yv) = (xmax * k as f64 / 4.0, ymax * k as f64 / 4.0);
                let _ = writeln!(s, "<line x1=\"{l}\" x2=\"{r}\" y1=\"{0}\" y2=\"{0}\" stroke=\"#ddd\"/><text x=\"{1}\" y=\"{2}\" text-anchor=\"end\">{3}</text>", py(yv), l - 4.0, py(yv) + 4.0, short(yv));
                let _ = writeln!(s, "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", px(xv), b + 14.0, short(xv));
            }
            let _ = writeln!(s, "<line x1=\"{l}\" x2=\"{l}\" y1=\"{t}\" y2=\"{b}\" stroke=\"black\"/><line x1=\"{l}\" x2=\"{r}\" y1=\"{b}\" y2=\"{b}\" stroke=\"black\"/>");
            let _ = writeln!(s, "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", (l + r) / 2.0, b + 32.0, esc(c.x));
            let _ = writeln!(s, "<text transform=\"translate({},{}) rotate(-90)\" text-anchor=\"middle\">{}</text>", ox + 14.0, (t + b) / 2.0, esc(c.y));
            for (k, ser) in c.series.iter().enumerate() {
                let color = COLORS[k % COLORS.len()];
                let mut pts = ser.points.clone();
                pts.sort_by(|a, b| a.0.total_cmp(&b.0));
                if ser.line {
                    let path: Vec<String> = pts.iter().map(|&(x, y)| format!("{:.1},{:.1}", px(x), py(y))).collect();
                    let _ = writeln!(s, "<polyline fill=\"none\" stroke=\"{color}\" stroke-width=\"2\" points=\"{}\"/>", path.join(" "));
                }
                for &(x, y) in &pts {
                    let _ = writeln!(s, "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"{}\" fill=\"{color}\"/>", px(x), py(y), if ser.line { 3 } else { 2 });
                }
                let ly = t + 4.0 + 14.0 * k as f64;
                let _ = writeln!(s, "<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{color}\"/><text x=\"{}\" y=\"{}\">{}</text>", l + 8.0, ly, l + 22.0, ly + 9.0, esc(&ser.name));
            }
        }
        s.push_str("</svg>\n");
        s
    }
}

/// The axis maximum: the data's maximum rounded up to 1, 2 or 5 times a power of ten.
fn nice_max(v: f64) -> f64 {
    if v <= 0.0 {
        return 1.0;
    }
    let p = 10f64.powf(v.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0].iter().map(|m| m * p).find(|&m| m >= v).unwrap_or(10.0 * p)
}

/// A tick label: 1.5k, 2M, 0.25.
fn short(v: f64) -> String {
    if v >= 1e6 {
        format!("{}M", num(v / 1e6))
    } else if v >= 1e3 {
        format!("{}k", num(v / 1e3))
    } else {
        num(v)
    }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_maximum_rounds_up_to_a_round_number() {
        assert_eq!(nice_max(0.0), 1.0);
        assert_eq!(nice_max(7.3), 10.0);
        assert_eq!(nice_max(1.7), 2.0);
        assert_eq!(nice_max(230.0), 250.0);
        assert_eq!(nice_max(4100.0), 5000.0);
    }

    #[test]
    fn ratio_is_how_far_rdna_is_ahead() {
        let f = |ours, peer, higher_is_better| Figure { section: "s", what: "w".into(), ours, unit: "u", peer: Some(("p".into(), peer)), higher_is_better, aim: None };
        assert_eq!(f(10.0, 2.0, true).ratio(), Some(5.0));
        assert_eq!(f(2.0, 10.0, false).ratio(), Some(5.0));
        assert_eq!(f(0.0, 10.0, false).ratio(), None);
    }
}
