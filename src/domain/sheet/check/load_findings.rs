//! The findings of the "Load and capacity" section (schema 3; docs/DOMAIN.md §8): numbers that
//! cannot work together, each from the analytic answer (`domain::capacity`), cheap enough to
//! run on every edit. The simulation ("Size it", `modality-advisor size`) is the reference;
//! these say only what the formulas already prove.

use super::{Findings, Severity};
use crate::domain::capacity::report::bottleneck_text;
use crate::domain::capacity::sweep::{analytic_point, drain_floor_ms};
use crate::domain::capacity::{Bottleneck, CapacityInput};
use crate::domain::duration::{approx, exact};
use crate::domain::lang::Lang;
use crate::domain::number::{group_thousands, num};
use crate::domain::sheet::{FieldId, JobSheet};

fn rate(v: f64) -> String {
    if v >= 100.0 {
        group_thousands(v.round() as u64)
    } else {
        format!("{v:.1}")
    }
}

/// Adds the section's findings: the chosen workers cannot keep up (error) or miss the wait
/// target by the formulas (warning); a drain deadline no worker count can meet (error); our
/// limiter above the downstream's rate limit (warning); a lease not above the handler's p99.9
/// (warning: runs that long are claimed again).
pub(super) fn load_findings(out: &mut Findings, sheet: &JobSheet) {
    let Some(load) = sheet.load else { return };
    let lang = out.lang;
    if let (Some(ours), Some(theirs)) = (load.our_limit, load.downstream.rate) {
        if ours.per_s() > theirs.per_s() {
            out.add(
                "our-limit-above-downstream-rate",
                Severity::Warning,
                FieldId::OurLimit,
                match lang {
                    Lang::En => format!(
                        "Our limit ({}/s) is above the downstream's rate limit ({}/s): calls above it are refused and retried. Pace at or below the downstream's rate.",
                        rate(ours.per_s()),
                        rate(theirs.per_s())
                    ),
                    Lang::Ja => format!(
                        "自前のレート制限（毎秒{}件）が呼び出し先のレート制限（毎秒{}件）を超えています。超えた分の呼び出しは拒否され、再試行になります。呼び出し先の上限以下にしてください。",
                        rate(ours.per_s()),
                        rate(theirs.per_s())
                    ),
                },
            );
        }
    }
    if let (Some(h), Some(r)) = (load.handler, sheet.retry.as_ref()) {
        let p999 = h.quantile_ms(0.999);
        if (r.lease_ms as f64) <= p999 {
            out.add(
                "lease-not-above-handler-tail",
                Severity::Warning,
                FieldId::Timeout,
                match lang {
                    Lang::En => format!(
                        "The lease ({}) is not above the handler's p99.9 ({}): a run that long loses its lease and another worker runs the job again (duplicate runs).",
                        exact(r.lease_ms, lang),
                        approx(p999, lang)
                    ),
                    Lang::Ja => format!(
                        "リース（{}）が処理時間のp99.9（{}）を超えていません。それだけかかる実行はリースを失い、別のワーカーが同じジョブをもう一度実行します（重複実行）。",
                        exact(r.lease_ms, lang),
                        approx(p999, lang)
                    ),
                },
            );
        }
    }
    let Ok(input) = CapacityInput::from_sheet(sheet) else {
        return;
    };
    if let (Some(floor), Some(deadline)) = (drain_floor_ms(&input), input.drain_within_ms) {
        if floor > deadline as f64 {
            let (b, ceiling) = input
                .fixed_ceiling()
                .unwrap_or((Bottleneck::Workers, f64::NAN));
            let jobs = input.burst.map_or(0, |b| b.jobs());
            out.add(
                "drain-deadline-unreachable",
                Severity::Error,
                FieldId::CapacityTargets,
                match lang {
                    Lang::En => format!(
                        "No worker count can drain the burst in {}: {} ({}/s) needs at least {} for {} jobs.",
                        exact(deadline, lang),
                        bottleneck_text(b, lang),
                        rate(ceiling),
                        approx(floor, lang),
                        group_thousands(jobs)
                    ),
                    Lang::Ja => format!(
                        "どのワーカー数でもバーストを{}以内には消化できません。{}（毎秒{}件）では{}件に少なくとも{}かかります。",
                        exact(deadline, lang),
                        bottleneck_text(b, lang),
                        rate(ceiling),
                        group_thousands(jobs),
                        approx(floor, lang)
                    ),
                },
            );
        }
    }
    let Some(slots) = input.chosen else { return };
    if input.arrival_per_s <= 0.0 {
        return;
    }
    let p = analytic_point(&input, slots);
    if !p.stable {
        out.add(
            "workers-cannot-keep-up",
            Severity::Error,
            FieldId::Workers,
            match lang {
                Lang::En => format!(
                    "With {} at once the queue grows without end: {}/s arrive (with retries {} Erlangs of work) but at most {}/s get through ({}; ρ = arrivals ÷ ceiling = {} ≥ 1).",
                    group_thousands(u64::from(slots)),
                    rate(input.arrival_per_s),
                    num(input.offered_load()),
                    rate(p.ceiling_per_s),
                    bottleneck_text(p.bottleneck, lang),
                    num(input.arrival_per_s / p.ceiling_per_s.max(1e-12))
                ),
                Lang::Ja => format!(
                    "同時{}件ではキューが際限なく伸びます。到着は毎秒{}件（再試行込みで{}アーラン）ですが、{}が通すのは毎秒{}件までです（ρ = 到着 ÷ 上限 = {} ≥ 1）。",
                    group_thousands(u64::from(slots)),
                    rate(input.arrival_per_s),
                    num(input.offered_load()),
                    bottleneck_text(p.bottleneck, lang),
                    rate(p.ceiling_per_s),
                    num(input.arrival_per_s / p.ceiling_per_s.max(1e-12))
                ),
            },
        );
        return;
    }
    if let (Some(target), Some(band)) = (input.target_wait_p95_ms, p.wait_p95_ms) {
        if band.low > target as f64 {
            out.add(
                "workers-miss-wait-target",
                Severity::Warning,
                FieldId::Workers,
                match lang {
                    Lang::En => format!(
                        "With {} at once the p95 wait is at least {} by the formulas (Erlang C), above the target of {}. Size it to see how many meet it.",
                        slots,
                        approx(band.low, lang),
                        exact(target, lang)
                    ),
                    Lang::Ja => format!(
                        "同時{}件では、待ち時間のp95が計算上（アーランC）少なくとも{}で、目標の{}を超えます。何件なら満たすかは「見積もる」で確かめてください。",
                        slots,
                        approx(band.low, lang),
                        exact(target, lang)
                    ),
                },
            );
        }
    }
}
