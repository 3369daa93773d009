//! Who proves what, and on which thread: the split of the library into
//! shards, the dialect twins decided once, and the workers that take each
//! instance's verdict from the cache, skip it, or ask Z3.

use crate::cache::{cacheable, ProofCache};
use crate::model::{binding, record};
use crate::progress::Event;
use diopter_rules::instance::Instance;
use diopter_rules::Rule;
use diopter_smt::prove::{prove_instance, Outcome, ProveConfig, Verdict};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The rules of share `i` of `n` (1-based): each rule whole in one share,
/// the largest rules first onto the least loaded share (ties: the lower
/// rule index, the lower share), so the split depends on the library alone.
pub fn shard_rules(sizes: &[usize], i: usize, n: usize) -> Vec<bool> {
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by_key(|&k| (std::cmp::Reverse(sizes[k]), k));
    let mut load = vec![0usize; n];
    let mut mine = vec![false; sizes.len()];
    for k in order {
        let s = (0..n).min_by_key(|&s| (load[s], s)).expect("n >= 1");
        load[s] += sizes[k].max(1);
        mine[k] = s + 1 == i;
    }
    mine
}

/// For each instance, the earlier one whose twin in the other dialect
/// poses the same question (`Instance::dialect_twin_key`): it is not
/// decided again but takes that one's verdict (2298 of the library's 9019
/// instances are such twins).
fn twins(work: &[(usize, Instance)]) -> Vec<Option<usize>> {
    let mut first: std::collections::HashMap<String, usize> = Default::default();
    work.iter()
        .enumerate()
        .map(|(i, (_, inst))| {
            let key = inst.dialect_twin_key()?;
            match first.get(&key) {
                Some(&j) => Some(j),
                None => {
                    first.insert(key, i);
                    None
                }
            }
        })
        .collect()
}

/// How the work is decided.
pub struct Workers<'a> {
    pub cfg: &'a ProveConfig,
    pub cache: Option<&'a ProofCache>,
    pub jobs: usize,
    /// When the run began, for the progress events.
    pub start: Instant,
}

/// The records of `work` (each a rule's index and one of its instances),
/// in its order, decided on `jobs` threads.
pub fn decide_all(
    w: &Workers,
    rules: &[Rule],
    work: &[(usize, Instance)],
    on_event: &mut dyn FnMut(&Event),
) -> Vec<Value> {
    let keys: Vec<Option<String>> = work
        .iter()
        .map(|(_, i)| w.cache.map(|c| c.key(i)))
        .collect();
    let twin_of = twins(work);
    let to_decide = twin_of.iter().filter(|t| t.is_none()).count();
    let results: Vec<Mutex<Option<Value>>> = work.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    // A rule expected to be refuted needs one refutation: its other
    // instances are skipped once one is refuted.
    let refuted_rules: Vec<AtomicBool> = rules.iter().map(|_| AtomicBool::new(false)).collect();
    let done = AtomicUsize::new(0);
    let from_cache = AtomicUsize::new(0);
    let cache_errors = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..w.jobs {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some((k, inst)) = work.get(i) else { break };
                if twin_of[i].is_some() {
                    continue;
                }
                let expect_refuted = rules[*k].expect_refuted();
                let cached = match (w.cache, &keys[i]) {
                    (Some(c), Some(key)) => c.get(key),
                    _ => None,
                };
                let rec = if let Some(mut v) = cached {
                    from_cache.fetch_add(1, Ordering::SeqCst);
                    v["cached"] = json!(true);
                    v
                } else if expect_refuted && refuted_rules[*k].load(Ordering::SeqCst) {
                    record(&Outcome {
                        verdict: Verdict::Skipped("the rule is already refuted".into()),
                        millis: 0,
                    })
                } else {
                    let v = record(&prove_instance(inst, w.cfg));
                    if let (Some(c), Some(key)) = (w.cache, &keys[i]) {
                        if cacheable(v["verdict"].as_str().unwrap_or("")) && c.put(key, &v).is_err()
                        {
                            cache_errors.fetch_add(1, Ordering::SeqCst);
                        }
                    }
                    v
                };
                if expect_refuted && rec["verdict"] == "refuted" {
                    refuted_rules[*k].store(true, Ordering::SeqCst);
                }
                *results[i].lock().expect("not poisoned") = Some(rec);
                done.fetch_add(1, Ordering::SeqCst);
            });
        }
        // Progress for long runs.
        let mut last = Instant::now();
        while done.load(Ordering::SeqCst) < to_decide {
            std::thread::sleep(Duration::from_millis(100));
            if last.elapsed() >= Duration::from_secs(5) {
                on_event(&Event::Progress {
                    done: done.load(Ordering::SeqCst),
                    to_decide,
                    from_cache: from_cache.load(Ordering::SeqCst),
                    twins: work.len() - to_decide,
                    seconds: w.start.elapsed().as_secs_f64(),
                });
                last = Instant::now();
            }
        }
    });
    if let Some(c) = w.cache {
        let count = cache_errors.load(Ordering::SeqCst);
        if count > 0 {
            on_event(&Event::CacheWriteFailures {
                count,
                dir: c.dir(),
            });
        }
    }
    let mut recs: Vec<Option<Value>> = results
        .into_iter()
        .map(|m| m.into_inner().expect("not poisoned"))
        .collect();
    for (i, t) in twin_of.iter().enumerate() {
        if let Some(j) = *t {
            let mut v = recs[j].clone().expect("every instance decided ran");
            // `cached` stays the twin's: this verdict came from the cache
            // exactly when the twin's did.
            v["millis"] = json!(0);
            v["twin_of"] = json!(binding(&work[j].1));
            recs[i] = Some(v);
        }
    }
    recs.into_iter()
        .map(|r| r.expect("every instance ran"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::shard_rules;

    #[test]
    fn every_rule_is_in_exactly_one_share_and_the_shares_are_balanced() {
        let sizes = [40, 1, 0, 7, 7, 30, 2, 13];
        let shares: Vec<Vec<bool>> = (1..=3).map(|i| shard_rules(&sizes, i, 3)).collect();
        for k in 0..sizes.len() {
            assert_eq!(shares.iter().filter(|s| s[k]).count(), 1, "rule {k}");
        }
        let loads: Vec<usize> = shares
            .iter()
            .map(|s| (0..sizes.len()).filter(|&k| s[k]).map(|k| sizes[k]).sum())
            .collect();
        // Largest first onto the least loaded: no share exceeds another by
        // more than the largest rule.
        let (lo, hi) = (loads.iter().min().unwrap(), loads.iter().max().unwrap());
        assert!(hi - lo <= 40, "{loads:?}");
        assert_eq!(shard_rules(&sizes, 1, 1), vec![true; sizes.len()]);
    }
}
