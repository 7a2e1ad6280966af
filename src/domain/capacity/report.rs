//! The capacity answer as data ([`SizeAnswer`]) and as text for people (plain text, Markdown)
//! and for scripts (JSON, the shape `modality-advisor size --format json` documents), in
//! Japanese or English. Numbers for people are grouped by thousands; JSON numbers are plain.

use super::{Bottleneck, CapacityInput};
use crate::domain::duration::approx;
use crate::domain::lang::Lang;
use crate::domain::number::{group_thousands, num};
use serde::{Deserialize, Serialize};

mod json;

/// A band `low ..= high`, ms.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Band {
    /// Low end.
    pub low: f64,
    /// High end.
    pub high: f64,
}

/// The analytic answer for one worker count.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AnalyticPoint {
    /// Jobs at once.
    pub workers: u32,
    /// `ρ = a / c`, the workers' utilisation (≥ 1: the queue grows without end).
    pub utilisation: f64,
    /// Whether the arrivals stay below the throughput ceiling.
    pub stable: bool,
    /// The throughput ceiling, jobs per second.
    pub ceiling_per_s: f64,
    /// The limit that sets it.
    pub bottleneck: Bottleneck,
    /// The wait p95 band, ms (`None`: unstable, no steady arrivals, or another limit than the
    /// workers binds — the simulation is then the only answer).
    pub wait_p95_ms: Option<Band>,
    /// The fluid approximation of the burst's drain, ms (`None`: no burst, or never drains).
    pub drain_ms: Option<f64>,
}

/// The mean over the runs of each wait percentile, ms.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct WaitMs {
    /// Median.
    pub p50: f64,
    /// 95th percentile.
    pub p95: f64,
    /// 99th percentile.
    pub p99: f64,
}

/// The simulated answer for one worker count.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SimPoint {
    /// Jobs at once.
    pub workers: u32,
    /// Whether the arrivals stay below the throughput ceiling (ρ < 1). An unstable count's
    /// simulated waits only say how long the run was: its queue grows without end.
    pub stable: bool,
    /// Runs (seeds) it is from.
    pub runs: u32,
    /// Wait in queue (enqueue → first claim) percentiles, means over the runs.
    pub wait_ms: Option<WaitMs>,
    /// 95 % confidence interval of the wait p95 (Student t over the runs), ms.
    pub wait_p95_ci_ms: Option<[f64; 2]>,
    /// Enqueue → done at p95 (the wait, the runs, the retries and any pacing), mean over the
    /// runs, ms.
    pub latency_p95_ms: Option<f64>,
    /// Burst drain time, mean over the runs, ms.
    pub drain_ms: Option<f64>,
    /// Its 95 % confidence interval, ms.
    pub drain_ci_ms: Option<[f64; 2]>,
    /// Burst runs that never drained within the simulator's time limit.
    pub undrained_runs: u32,
    /// Little's law, measured: the time-average rows queued `L` (mean over the runs).
    pub little_l: Option<f64>,
    /// … and `λ·W` from the measured arrival rate and mean wait.
    pub little_lambda_w: Option<f64>,
    /// Runs started while another run of the same job still went (a lease that expired
    /// under a run), over all the steady runs.
    pub overlapping_runs: u64,
    /// Jobs dead-lettered in the steady runs (all runs).
    pub dead_jobs: u64,
    /// Jobs dead-lettered in the burst runs until drained (all runs).
    pub burst_dead_jobs: u64,
    /// Calls the downstream refused (busy or rate limited), all runs.
    pub refused_calls: u64,
}

/// Why the recommendation is what it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// The smallest simulated count whose upper bound meets every target.
    Meets,
    /// No target: the smallest stable count.
    NoTargetStable,
    /// No count is stable.
    Unstable,
    /// No count can: a limit other than the workers caps the throughput (or the drain).
    LimitedElsewhere,
    /// More than the largest count allowed would be needed.
    OverMax,
    /// More than the counts simulated would be needed (raise `--workers-max` or look at the
    /// analytic band).
    BeyondSweep,
    /// The counts that would meet the targets lose jobs: the downstream refused calls and
    /// jobs were dead-lettered (pace the workers to the downstream's rate, or allow more
    /// attempts).
    LosesJobs,
}

/// The recommendation: a worker count, or `None` with the reason none can be given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recommendation {
    /// Jobs at once (`None`: no count meets the targets).
    pub workers: Option<u32>,
    /// Why.
    pub reason: Reason,
}

/// The lease answer.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Lease {
    /// The lease recommended, ms: `max(1.5 × handler p99.9, 1.5 × attempt timeout)`,
    /// rounded up to a readable value.
    pub recommended_ms: u64,
    /// The handler's p99.9, ms.
    pub handler_p999_ms: f64,
    /// SQS + Lambda: 6 × the function timeout (AWS's guidance), ms.
    pub sqs_lambda_ms: Option<u64>,
    /// A lease as short as the handler's p95, ms …
    pub short_lease_ms: u64,
    /// … simulated over this many jobs …
    pub short_lease_jobs: u64,
    /// … on this many workers (at least 2: a duplicate needs a second worker) …
    pub short_lease_workers: u32,
    /// … started this many runs while another run of the job still went (duplicates).
    pub short_lease_overlapping_runs: Option<u64>,
}

/// The whole capacity answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SizeAnswer {
    /// The numbers it is from.
    pub input: CapacityInput,
    /// The recommendation.
    pub recommendation: Recommendation,
    /// The bottleneck at the recommended count (or the largest simulated).
    pub bottleneck: Bottleneck,
    /// The throughput ceiling there, jobs per second.
    pub throughput_ceiling_per_s: f64,
    /// `a = λ · E[attempts] · E[S]`, Erlangs.
    pub offered_load: f64,
    /// `E[attempts] = (1 − pᵐ) / (1 − p)`.
    pub expected_attempts: f64,
    /// `a / c` at the recommended count.
    pub utilisation: f64,
    /// Square-root staffing's first guess `⌈a + √a⌉`.
    pub first_guess: u32,
    /// The smallest count whose analytic band meets the targets.
    pub analytic_recommendation: Option<u32>,
    /// The simulated points, by worker count.
    pub points: Vec<SimPoint>,
    /// The analytic points of the simulated counts (and the chosen one).
    pub analytic: Vec<AnalyticPoint>,
    /// The shortest drain any count can give (a limit other than the workers), ms.
    pub drain_floor_ms: Option<f64>,
    /// The lease answer.
    pub lease: Lease,
    /// Runs per count.
    pub seeds: u32,
    /// The first seed.
    pub seed: u64,
    /// Jobs per steady run.
    pub jobs_per_run: u64,
    /// The lease the runs used, ms (the sheet's).
    pub run_lease_ms: u64,
}

fn ms(v: f64, lang: Lang) -> String {
    approx(v.max(0.0), lang)
}

/// " ≤ 5 s ✓" when the upper bound `hi` meets the target `t` (ms), else " > 5 s ✗".
fn versus(hi: f64, t: u64, lang: Lang) -> String {
    if hi <= t as f64 {
        format!(" ≤ {} ✓", ms(t as f64, lang))
    } else {
        format!(" > {} ✗", ms(t as f64, lang))
    }
}

/// The bottleneck in words.
pub fn bottleneck_text(b: Bottleneck, lang: Lang) -> &'static str {
    match (b, lang) {
        (Bottleneck::Workers, Lang::En) => "the workers",
        (Bottleneck::DownstreamRate, Lang::En) => "the downstream's rate limit",
        (Bottleneck::OurLimit, Lang::En) => "our own rate limiter",
        (Bottleneck::DownstreamConcurrency, Lang::En) => "the downstream's concurrency limit",
        (Bottleneck::Lock, Lang::En) => "the exclusive lock (one at a time)",
        (Bottleneck::Workers, Lang::Ja) => "ワーカー数",
        (Bottleneck::DownstreamRate, Lang::Ja) => "呼び出し先のレート制限",
        (Bottleneck::OurLimit, Lang::Ja) => "自前のレート制限",
        (Bottleneck::DownstreamConcurrency, Lang::Ja) => "呼び出し先の同時実行数の上限",
        (Bottleneck::Lock, Lang::Ja) => "排他ロック（同時に1つ）",
    }
}

impl SizeAnswer {
    /// The recommendation in one sentence, with its basis.
    pub fn reason_text(&self, lang: Lang) -> String {
        let r = &self.recommendation;
        let point = r
            .workers
            .and_then(|w| self.points.iter().find(|p| p.workers == w));
        let basis = point.map(|p| self.point_basis(p, lang)).unwrap_or_default();
        let b = bottleneck_text(self.bottleneck, lang);
        match (r.reason, lang) {
            (Reason::Meets, Lang::En) => format!(
                "{} at once: {basis} — every target met at the upper end of the 95 % interval over {} runs. Bottleneck there: {b}.",
                r.workers.unwrap_or(0),
                self.seeds
            ),
            (Reason::Meets, Lang::Ja) => format!(
                "同時{}件：{basis}。{}回の実行の95%信頼区間の上端で、すべての目標を満たします。そこでのボトルネック：{b}。",
                r.workers.unwrap_or(0),
                self.seeds
            ),
            (Reason::NoTargetStable, Lang::En) => format!(
                "{} at once: the smallest count that keeps up (no target given: state a wait target or a drain deadline to size for it). {basis}",
                r.workers.unwrap_or(0)
            ),
            (Reason::NoTargetStable, Lang::Ja) => format!(
                "同時{}件：追いつける最小の数です（目標が未記入：待ち時間の目標か消化期限を書くと、それに合わせて決めます）。{basis}",
                r.workers.unwrap_or(0)
            ),
            (Reason::Unstable, Lang::En) => format!(
                "No count up to {} keeps up: the arrivals ({}/s, with retries {} Erlangs of work) exceed the ceiling ({}/s, {b}); utilisation ρ ≥ 1, the queue grows without end.",
                self.input.workers_max,
                num(self.input.arrival_per_s),
                num(self.offered_load),
                num(self.throughput_ceiling_per_s)
            ),
            (Reason::Unstable, Lang::Ja) => format!(
                "{}件までのどの数でも追いつきません：到着（毎秒{}件、再試行込みで{}アーランの仕事）が上限（毎秒{}件、{b}）を超えます。稼働率ρ ≥ 1で、キューは際限なく伸びます。",
                self.input.workers_max,
                num(self.input.arrival_per_s),
                num(self.offered_load),
                num(self.throughput_ceiling_per_s)
            ),
            (Reason::LimitedElsewhere, _) => self.limited_elsewhere(lang),
            (Reason::OverMax, Lang::En) => format!(
                "No count up to {} meets the targets: more workers are needed than allowed (workers max).",
                self.input.workers_max
            ),
            (Reason::OverMax, Lang::Ja) => format!(
                "{}件までのどの数でも目標を満たしません：上限（workers max）を超える数が必要です。",
                self.input.workers_max
            ),
            (Reason::LosesJobs, Lang::En) => {
                let (dead, refused) = self.losses();
                format!(
                    "No count meets the targets without losing jobs: the downstream refused {} calls and {} jobs were dead-lettered (all runs). Pace the workers at or below the downstream's rate (our own limiter), or allow more attempts.",
                    group_thousands(refused),
                    group_thousands(dead)
                )
            }
            (Reason::LosesJobs, Lang::Ja) => {
                let (dead, refused) = self.losses();
                format!(
                    "ジョブを失わずに目標を満たす数はありません：呼び出し先が{}回拒否し、{}件が退避されました（全実行の合計）。ワーカーの呼び出しを呼び出し先のレート以下に抑える（自前のレート制限）か、試行回数を増やしてください。",
                    group_thousands(refused),
                    group_thousands(dead)
                )
            }
            (Reason::BeyondSweep, Lang::En) => format!(
                "None of the counts simulated ({}) meets the targets; more are needed (the analytic band suggests {}).",
                self.counts_text(),
                self.analytic_recommendation
                    .map_or("—".to_owned(), |c| c.to_string())
            ),
            (Reason::BeyondSweep, Lang::Ja) => format!(
                "シミュレーションした数（{}）では目標を満たしません。もっと必要です（解析の目安：{}）。",
                self.counts_text(),
                self.analytic_recommendation
                    .map_or("—".to_owned(), |c| c.to_string())
            ),
        }
    }

    /// Jobs dead-lettered and calls refused, over every simulated point.
    fn losses(&self) -> (u64, u64) {
        self.points.iter().fold((0, 0), |(d, r), p| {
            (d + p.dead_jobs + p.burst_dead_jobs, r + p.refused_calls)
        })
    }

    fn counts_text(&self) -> String {
        match (self.points.first(), self.points.last()) {
            (Some(a), Some(b)) => format!("{}–{}", a.workers, b.workers),
            _ => "—".into(),
        }
    }

    fn limited_elsewhere(&self, lang: Lang) -> String {
        let (b, ceiling) = self
            .input
            .fixed_ceiling()
            .unwrap_or((self.bottleneck, self.throughput_ceiling_per_s));
        let bt = bottleneck_text(b, lang);
        let floor = self.drain_floor_ms;
        match (lang, self.input.burst, floor) {
            (Lang::En, Some(burst), Some(f)) => format!(
                "No worker count can: {bt} ({}/s) needs ≥ {} for {} jobs whatever the workers{}.",
                num(ceiling),
                ms(f, lang),
                group_thousands(burst.jobs()),
                self.input
                    .drain_within_ms
                    .map_or(String::new(), |d| format!(" (the deadline is {})", ms(d as f64, lang)))
            ),
            (Lang::Ja, Some(burst), Some(f)) => format!(
                "ワーカー数では解決しません：{bt}（毎秒{}件）では、{}件に{}以上かかります{}。",
                num(ceiling),
                group_thousands(burst.jobs()),
                ms(f, lang),
                self.input
                    .drain_within_ms
                    .map_or(String::new(), |d| format!("（期限は{}）", ms(d as f64, lang)))
            ),
            (Lang::En, _, _) => format!(
                "No worker count can: {bt} caps the throughput at {}/s; more workers only wait.",
                num(ceiling)
            ),
            (Lang::Ja, _, _) => format!(
                "ワーカー数では解決しません：{bt}がスループットを毎秒{}件に抑えています。増やしても待つだけです。",
                num(ceiling)
            ),
        }
    }

    /// "p95 wait 2.1 s (95 % CI 1.9–2.3 s) ≤ 5 s; burst drained in 52 s (CI 51–53 s) ≤ 2 min".
    pub fn point_basis(&self, p: &SimPoint, lang: Lang) -> String {
        let mut parts = Vec::new();
        if !p.stable && self.input.arrival_per_s > 0.0 {
            parts.push(
                match lang {
                    Lang::En => "ρ ≥ 1: the queue grows without end (these runs' figures only say how long they ran)",
                    Lang::Ja => "ρ ≥ 1：キューは際限なく伸びます（この実行の数値は実行の長さ次第です）",
                }
                .to_owned(),
            );
        }
        if let (Some(w), Some([lo, hi])) = (p.wait_ms, p.wait_p95_ci_ms) {
            let target = self
                .input
                .target_wait_p95_ms
                .map(|t| versus(hi, t, lang))
                .unwrap_or_default();
            parts.push(match lang {
                Lang::En => format!(
                    "p95 wait {} (95 % CI {}–{}){target}",
                    ms(w.p95, lang),
                    ms(lo, lang),
                    ms(hi, lang)
                ),
                Lang::Ja => format!(
                    "待ち時間p95 {}（95%信頼区間 {}〜{}）{target}",
                    ms(w.p95, lang),
                    ms(lo, lang),
                    ms(hi, lang)
                ),
            });
        }
        if let Some(l) = p.latency_p95_ms {
            parts.push(match lang {
                Lang::En => format!("done within {} at p95", ms(l, lang)),
                Lang::Ja => format!("p95で{}以内に完了", ms(l, lang)),
            });
        }
        if let (Some(d), Some([lo, hi])) = (p.drain_ms, p.drain_ci_ms) {
            // A queue emptied by dead-lettering is not a drained burst.
            let target = match (self.input.drain_within_ms, p.burst_dead_jobs > 0, lang) {
                (Some(_), true, Lang::En) => " ✗ (emptied by dead-lettering jobs)".to_owned(),
                (Some(_), true, Lang::Ja) => " ✗（ジョブの退避で空になっただけ）".to_owned(),
                (Some(t), false, _) => versus(hi, t, lang),
                (None, _, _) => String::new(),
            };
            parts.push(match lang {
                Lang::En => format!(
                    "burst drained in {} (95 % CI {}–{}){target}",
                    ms(d, lang),
                    ms(lo, lang),
                    ms(hi, lang)
                ),
                Lang::Ja => format!(
                    "バーストの消化 {}（95%信頼区間 {}〜{}）{target}",
                    ms(d, lang),
                    ms(lo, lang),
                    ms(hi, lang)
                ),
            });
        }
        let dead = p.dead_jobs + p.burst_dead_jobs;
        if dead > 0 || p.refused_calls > 0 {
            parts.push(match lang {
                Lang::En => format!(
                    "{} jobs dead-lettered, {} calls refused by the downstream ({} runs)",
                    group_thousands(dead),
                    group_thousands(p.refused_calls),
                    p.runs
                ),
                Lang::Ja => format!(
                    "退避{}件、呼び出し先の拒否{}回（{}回の実行）",
                    group_thousands(dead),
                    group_thousands(p.refused_calls),
                    p.runs
                ),
            });
        }
        if p.undrained_runs > 0 {
            parts.push(match lang {
                Lang::En => format!("{} runs never drained", p.undrained_runs),
                Lang::Ja => format!("{}回の実行で消化しきれず", p.undrained_runs),
            });
        }
        parts.join(match lang {
            Lang::En => "; ",
            Lang::Ja => "、",
        })
    }

    /// The lease in one sentence.
    pub fn lease_text(&self, lang: Lang) -> String {
        let l = &self.lease;
        let dup = l.short_lease_overlapping_runs.map(|n| match lang {
            Lang::En => format!(
                " A lease of {} (the handler's p95) gave {} duplicate runs in {} jobs on {} workers (simulated).",
                ms(l.short_lease_ms as f64, lang),
                group_thousands(n),
                group_thousands(l.short_lease_jobs),
                l.short_lease_workers
            ),
            Lang::Ja if n == 0 => format!(
                "リースを{}（処理時間のp95）にしても、ワーカー{}台・{}件では重複実行は起きませんでした（シミュレーション）。",
                ms(l.short_lease_ms as f64, lang),
                l.short_lease_workers,
                group_thousands(l.short_lease_jobs)
            ),
            Lang::Ja => format!(
                "リースを{}（処理時間のp95）にすると、ワーカー{}台・{}件で{}回の重複実行が起きました（シミュレーション）。",
                ms(l.short_lease_ms as f64, lang),
                l.short_lease_workers,
                group_thousands(l.short_lease_jobs),
                group_thousands(n)
            ),
        });
        let sqs = l.sqs_lambda_ms.map(|s| match lang {
            Lang::En => format!(
                " SQS + Lambda: at least 6 × the function timeout = {}.",
                ms(s as f64, lang)
            ),
            Lang::Ja => format!(
                "SQS + Lambdaでは関数タイムアウトの6倍以上＝{}。",
                ms(s as f64, lang)
            ),
        });
        match lang {
            Lang::En => format!(
                "Lease / visibility timeout: {} (1.5 × the larger of the handler's p99.9, {}, and the attempt timeout, rounded up to a readable value).{}{}",
                ms(l.recommended_ms as f64, lang),
                ms(l.handler_p999_ms, lang),
                sqs.unwrap_or_default(),
                dup.unwrap_or_default()
            ),
            Lang::Ja => format!(
                "リース／可視性タイムアウト：{}（処理時間のp99.9＝{}と1回のタイムアウトの大きい方の1.5倍を、切りのよい値に切り上げ）。{}{}",
                ms(l.recommended_ms as f64, lang),
                ms(l.handler_p999_ms, lang),
                sqs.unwrap_or_default(),
                dup.unwrap_or_default()
            ),
        }
    }

    /// The offered load line: "Offered load 3.2 Erlangs (λ 10/s × 1.05 attempts × 305 ms);
    /// throughput ceiling 12.5/s at 4 at once (the downstream's rate limit); utilisation 80 %".
    pub fn load_text(&self, lang: Lang) -> String {
        let rec = self
            .recommendation
            .workers
            .unwrap_or_else(|| self.points.last().map_or(1, |p| p.workers));
        // A burst with no steady arrivals offers no load: 0 Erlangs and 0 % say nothing.
        if self.input.arrival_per_s <= 0.0 {
            let (ceil, b) = (
                num(self.throughput_ceiling_per_s),
                bottleneck_text(self.bottleneck, lang),
            );
            return match lang {
                Lang::En => format!(
                    "No steady arrivals (a burst only); at {rec} at once: throughput ceiling {ceil}/s ({b})."
                ),
                Lang::Ja => format!(
                    "定常の到着なし（バーストのみ）。同時{rec}件でスループット上限 毎秒{ceil}件（{b}）。"
                ),
            };
        }
        match lang {
            Lang::En => format!(
                "Offered load {} Erlangs (λ {}/s × {} attempts × mean {}); at {rec} at once: the workers' utilisation {}, throughput ceiling {}/s ({}).",
                num(self.offered_load),
                num(self.input.arrival_per_s),
                // As the sheet's load row writes it ("1.05", not "1.053").
                num(self.expected_attempts),
                ms(self.input.handler.mean_ms(), lang),
                self.utilisation_text(lang),
                num(self.throughput_ceiling_per_s),
                bottleneck_text(self.bottleneck, lang)
            ),
            Lang::Ja => format!(
                "提供負荷 {} アーラン（λ 毎秒{}件 × 試行{}回 × 平均{}）。同時{rec}件でワーカーの稼働率{}、スループット上限 毎秒{}件（{}）。",
                num(self.offered_load),
                num(self.input.arrival_per_s),
                num(self.expected_attempts),
                ms(self.input.handler.mean_ms(), lang),
                self.utilisation_text(lang),
                num(self.throughput_ceiling_per_s),
                bottleneck_text(self.bottleneck, lang)
            ),
        }
    }

    /// The workers' utilisation ρ at the recommended count: "80 %" below 1; from 1 on, where a
    /// percentage would read as a worker busy more than all the time ("841 %" past 200
    /// workers), ρ itself and what it means: "ρ = 8.41 (over 1: more work arrives than they
    /// can do)".
    fn utilisation_text(&self, lang: Lang) -> String {
        let rho = self.utilisation;
        if rho < 1.0 {
            return match lang {
                Lang::En => format!("{:.0} %", rho * 100.0),
                Lang::Ja => format!("{:.0}%", rho * 100.0),
            };
        }
        let rho = num(rho);
        match lang {
            Lang::En => format!("ρ = {rho} (1 or more: more work arrives than they can do)"),
            Lang::Ja => format!("ρ = {rho}（1以上：処理できる以上の仕事が届きます）"),
        }
    }

    /// The answer as a plain-text report (the CLI's `--format text`).
    pub fn to_text(&self, lang: Lang) -> String {
        let mut out = String::new();
        let (h1, h2, h3) = match lang {
            Lang::En => ("Capacity", "Workers (jobs at once)", "analytic p95 band"),
            Lang::Ja => ("キャパシティ", "ワーカー（同時実行数）", "解析のp95帯"),
        };
        out.push_str(&format!("{h1}\n\n{}\n\n", self.reason_text(lang)));
        out.push_str(&format!(
            "{}\n{}\n\n",
            self.load_text(lang),
            self.lease_text(lang)
        ));
        out.push_str(&format!("{h2}\n"));
        for p in &self.points {
            let a = self.analytic.iter().find(|x| x.workers == p.workers);
            let band = a
                .and_then(|a| a.wait_p95_ms)
                .map(|b| format!("{}–{}", ms(b.low, lang), ms(b.high, lang)))
                .unwrap_or_else(|| "—".into());
            let mark = if Some(p.workers) == self.recommendation.workers {
                " ←"
            } else {
                ""
            };
            out.push_str(&format!(
                "  {:>4}  {}  [{h3} {band}]{mark}\n",
                p.workers,
                self.point_basis(p, lang)
            ));
        }
        out.push_str(&match lang {
            Lang::En => format!(
                "\n{} runs per count from seed {}, {} jobs per steady run; {}.\n",
                self.seeds,
                self.seed,
                group_thousands(self.jobs_per_run),
                match self.input.lease_ms {
                    Some(l) => format!("the runs use the sheet's lease ({})", ms(l as f64, lang)),
                    None => format!(
                        "no lease given: the runs use {}, longer than any run",
                        ms(self.run_lease_ms as f64, lang)
                    ),
                }
            ),
            Lang::Ja => format!(
                "\n数ごとに{}回（シード{}から）、定常の実行は各{}件。{}。\n",
                self.seeds,
                self.seed,
                group_thousands(self.jobs_per_run),
                match self.input.lease_ms {
                    Some(l) => format!(
                        "リースは定義書の値（{}）で実行しています",
                        ms(l as f64, lang)
                    ),
                    None => format!(
                        "リースの指定がないため、どの実行よりも長い{}で実行しています",
                        ms(self.run_lease_ms as f64, lang)
                    ),
                }
            ),
        });
        out
    }

    /// The answer as Markdown (a heading, the sentences, a table of the points).
    pub fn to_markdown(&self, lang: Lang) -> String {
        let (title, cols) = match lang {
            Lang::En => (
                "## Capacity",
                "| Workers | Wait p95 (simulated) | 95 % CI | Analytic band | Burst drain | Bottleneck |",
            ),
            Lang::Ja => (
                "## キャパシティ",
                "| 同時実行数 | 待ち時間p95（シミュレーション） | 95%信頼区間 | 解析の帯 | バースト消化 | ボトルネック |",
            ),
        };
        let mut out = format!(
            "{title}\n\n{}\n\n{}\n\n{}\n\n{cols}\n|---:|---:|---|---|---|---|\n",
            self.reason_text(lang),
            self.load_text(lang),
            self.lease_text(lang)
        );
        for p in &self.points {
            let a = self.analytic.iter().find(|x| x.workers == p.workers);
            let cell = |v: Option<String>| v.unwrap_or_else(|| "—".into());
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} |\n",
                p.workers,
                cell(p.wait_ms.map(|w| ms(w.p95, lang))),
                cell(
                    p.wait_p95_ci_ms
                        .map(|[l, h]| format!("{}–{}", ms(l, lang), ms(h, lang)))
                ),
                cell(a.and_then(|a| a.wait_p95_ms).map(|b| format!(
                    "{}–{}",
                    ms(b.low, lang),
                    ms(b.high, lang)
                ))),
                cell(p.drain_ms.map(|d| ms(d, lang))),
                a.map_or("—", |a| bottleneck_text(a.bottleneck, lang)),
            ));
        }
        out
    }
}
