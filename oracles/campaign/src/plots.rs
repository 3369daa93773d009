//! The report's four SVG line charts, drawn from the state's samples:
//! executions and coverage per target, distinct findings, and the resident
//! memory of the driver and of the fuzzers over time.

use crate::error::OutputError;
use crate::state::State;
use std::collections::BTreeMap;
use std::path::Path;

/// Named series of (seconds, value) points.
type Series = Vec<(String, Vec<(f64, f64)>)>;

/// Draws execs.svg, coverage.svg, findings.svg and memory.svg into `dir`;
/// the charts that could not be drawn.
pub fn draw(dir: &Path, st: &State) -> Vec<OutputError> {
    let mut errors = Vec::new();
    let mut execs: BTreeMap<&str, Vec<(f64, f64)>> = BTreeMap::new();
    let mut covs: BTreeMap<&str, Vec<(f64, f64)>> = BTreeMap::new();
    let (mut driver_mem, mut fuzzer_mem) = (Vec::new(), Vec::new());
    for r in &st.samples {
        for (t, (e, c)) in &r.targets {
            execs.entry(t).or_default().push((r.seconds, *e as f64));
            covs.entry(t).or_default().push((r.seconds, *c as f64));
        }
        if let Some(k) = r.rss_kib {
            driver_mem.push((r.seconds, k as f64 / 1024.0));
        }
        if let Some(k) = r.fuzzers_rss_kib {
            fuzzer_mem.push((r.seconds, k as f64 / 1024.0));
        }
    }
    let named = |m: BTreeMap<&str, Vec<(f64, f64)>>| -> Series {
        m.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
    };
    let mut fpts: Vec<(f64, f64)> = vec![(0.0, 0.0)];
    fpts.extend(st.finding_times.iter().map(|(t, n)| (*t, *n as f64)));
    fpts.push((st.elapsed, st.findings.len() as f64));
    let mut mem: Series = vec![("driver".to_string(), driver_mem)];
    if !fuzzer_mem.is_empty() {
        mem.push(("fuzzers (all processes)".to_string(), fuzzer_mem));
    }
    for (file, title, y, s) in [
        (
            "execs.svg",
            "Executions over time",
            "executions",
            named(execs),
        ),
        (
            "coverage.svg",
            "Coverage over time",
            "coverage (edges)",
            named(covs),
        ),
        (
            "findings.svg",
            "Findings over time",
            "distinct findings",
            vec![("findings".to_string(), fpts)],
        ),
        ("memory.svg", "Resident memory over time", "RSS (MiB)", mem),
    ] {
        if let Err(message) = plot(&dir.join(file), title, y, &s) {
            errors.push(OutputError::Plot { file, message });
        }
    }
    errors
}

/// Draws one SVG line chart: `series` is (name, points).
fn plot(
    path: &Path,
    title: &str,
    ylabel: &str,
    series: &[(String, Vec<(f64, f64)>)],
) -> Result<(), String> {
    use plotters::prelude::*;
    let xmax = series
        .iter()
        .flat_map(|(_, p)| p.iter().map(|q| q.0))
        .fold(1.0f64, f64::max);
    let ymax = series
        .iter()
        .flat_map(|(_, p)| p.iter().map(|q| q.1))
        .fold(1.0f64, f64::max)
        * 1.05;
    let root = SVGBackend::new(path, (800, 400)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(35)
        .y_label_area_size(70)
        .build_cartesian_2d(0f64..xmax, 0f64..ymax)
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc("seconds")
        .y_desc(ylabel)
        .draw()
        .map_err(|e| e.to_string())?;
    let colors = [RED, BLUE, GREEN, MAGENTA, CYAN, BLACK];
    for (i, (name, pts)) in series.iter().enumerate() {
        let c = colors[i % colors.len()];
        chart
            .draw_series(LineSeries::new(pts.iter().copied(), &c))
            .map_err(|e| e.to_string())?
            .label(name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}
