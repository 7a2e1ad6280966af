//! Building a [`Simulation`] from a validated config: the error-text table, the arrival
//! streams with their first arrivals, the workers' first polls, the log's names and the
//! statistics columns the config needs. The order of the first random draws and sequence
//! numbers is part of the trace: Poisson streams draw their first gap in order of their first
//! instant, before any worker's first poll is scheduled.

use super::*;

/// The error texts of a run: per kind its own error, then the built-in ones (lease expiry,
/// then the three refused downstream answers), indexed by [`ErrorId`].
struct ErrorTable {
    texts: Vec<String>,
    kind_error: Vec<ErrorId>,
    expiry_error: ErrorId,
    call_errors: [ErrorId; 3],
}

impl ErrorTable {
    fn of(cfg: &SimConfig) -> ErrorTable {
        let mut texts = Vec::new();
        let mut kind_error = Vec::new();
        for k in &cfg.kinds {
            kind_error.push(ErrorId(texts.len() as u32));
            texts.push(k.error.clone());
        }
        let expiry_error = ErrorId(texts.len() as u32);
        texts.push(BUILTIN_ERRORS[0].to_owned());
        let mut call_errors = [ErrorId(0); 3];
        for (i, r) in [
            CallResult::Busy,
            CallResult::RateLimited,
            CallResult::Unavailable,
        ]
        .into_iter()
        .enumerate()
        {
            call_errors[i] = ErrorId(texts.len() as u32);
            texts.push(r.text().to_owned());
        }
        ErrorTable {
            texts,
            kind_error,
            expiry_error,
            call_errors,
        }
    }
}

/// Per arrival pattern its [`Stream`], and the first instant of each stream that has one
/// (with the stream's index), in stream order.
fn streams_of(cfg: &SimConfig) -> (Vec<Stream>, Vec<(SimTime, usize)>) {
    let mut firsts = Vec::new();
    let mut streams = Vec::new();
    for (i, a) in cfg.arrivals.iter().enumerate() {
        let mut times = Vec::new();
        let first = match &a.pattern {
            Pattern::Burst { count, at_ms } => (*count > 0).then(|| SimTime::from_ms(*at_ms)),
            Pattern::Poisson { count, .. } => (*count > 0).then_some(SimTime::ZERO),
            Pattern::Times { at_ms } => {
                times = at_ms.clone();
                times.sort_unstable();
                times.first().map(|&t| SimTime::from_ms(t))
            }
        };
        streams.push(Stream {
            kind: KindId(a.kind as u32),
            produced: 0,
            times,
            shape: match a.pattern {
                Pattern::Burst { count, .. } => Shape::Burst { count },
                Pattern::Poisson { rate_per_s, count } => Shape::Poisson {
                    count,
                    gap: ExpScale::of_mean(1e6 / rate_per_s),
                },
                Pattern::Times { .. } => Shape::Times,
            },
        });
        if let Some(t) = first {
            firsts.push((t, i));
        }
    }
    (streams, firsts)
}

/// Per stream the ordering key of its first arrival ([`NO_ARRIVAL`] for none), from the
/// streams' first instants `firsts`.
fn first_heads(
    cfg: &SimConfig,
    mut firsts: Vec<(SimTime, usize)>,
    rng: &mut SimRng,
    queue: &mut EventQueue<Ev>,
) -> Vec<u128> {
    // Streams start in order of their first instant (ties: stream order); Poisson streams
    // draw their first gap now, in that order, so the trace is fixed.
    firsts.sort_unstable();
    let mut heads = vec![NO_ARRIVAL; cfg.arrivals.len()];
    for (t, stream) in firsts {
        let t = match cfg.arrivals[stream].pattern {
            Pattern::Poisson { rate_per_s, .. } => {
                t.plus(SimDuration(round_us(rng.exponential(1e6 / rate_per_s))))
            }
            _ => t,
        };
        heads[stream] = key(t, queue.take_seq());
    }
    heads
}

/// The workers, not started yet, each with its first poll scheduled at its start.
fn start_workers(cfg: &SimConfig, queue: &mut EventQueue<Ev>) -> Vec<Worker> {
    let mut workers = Vec::new();
    for (i, w) in cfg.workers.iter().enumerate() {
        workers.push(Worker {
            state: WState::NotStarted,
            token: 0,
            claims: 0,
            first_claim: None,
            last_error: None,
        });
        queue.schedule(w.start, Ev::Poll { w: i, token: 0 });
    }
    workers
}

/// The per-job statistics columns the config needs beyond the usual ones.
fn needs_of(cfg: &SimConfig) -> Needs {
    Needs {
        runs: cfg
            .kinds
            .iter()
            .any(|k| matches!(k.failure, FailureModel::FirstRuns { .. })),
        arrival_no: cfg.kinds.iter().any(|k| {
            k.effect
                .as_ref()
                .is_some_and(|e| e.idempotency_key.is_some())
        }),
        prev_wait: cfg.retry.jitter == Jitter::Decorrelated,
    }
}

/// The names the log's lines refer to by index.
fn names_of(cfg: &SimConfig, errors: &ErrorTable) -> LogNames {
    LogNames {
        kinds: cfg
            .kinds
            .iter()
            .map(|k| KindNames {
                name: k.name.clone(),
                max_attempts: k.max_attempts,
                amount: k.effect.as_ref().map_or(0, |e| e.amount),
                key: k.effect.as_ref().and_then(|e| e.idempotency_key.clone()),
            })
            .collect(),
        workers: cfg.workers.iter().map(|w| w.name.clone()).collect(),
        errors: errors.texts.clone(),
        builtin_errors: errors.expiry_error.0,
    }
}

impl Simulation {
    /// Builds a run from `cfg`.
    ///
    /// # Errors
    /// Every finding of [`SimConfig::validate`].
    pub fn new(cfg: SimConfig) -> Result<Simulation, Vec<ConfigError>> {
        let errs = cfg.validate();
        if !errs.is_empty() {
            return Err(errs);
        }
        let errors = ErrorTable::of(&cfg);
        let (streams, firsts) = streams_of(&cfg);
        let streams_open = streams
            .iter()
            .enumerate()
            .filter(|(i, _)| cfg.job_count_of(*i) > 0)
            .count();
        let mut rng = SimRng::new(cfg.seed);
        let mut first_queue = EventQueue::new();
        let heads = first_heads(&cfg, firsts, &mut rng, &mut first_queue);
        let workers = start_workers(&cfg, &mut first_queue);
        let bucket_tokens = cfg
            .downstream
            .and_then(|d| d.rate_limit)
            .map_or(0.0, |tb| f64::from(tb.burst));
        let bucket = cfg.series_bucket;
        let jobs = cfg.job_count();
        let needs = needs_of(&cfg);
        let names = names_of(&cfg, &errors);
        let plain = cfg.is_plain();
        let mut table = JobsTable::with_retention(jobs, cfg.retention);
        table.set_expiry_error(errors.expiry_error);
        table.set_expiry_rule(cfg.expired_on_last_attempt);
        Ok(Simulation {
            now: SimTime::ZERO,
            queue: first_queue,
            next_arrival: earliest(&heads),
            heads,
            rng,
            table,
            errors: errors.texts,
            kind_error: errors.kind_error,
            run_scales: cfg
                .kinds
                .iter()
                .map(|k| match k.duration {
                    DurationDist::Exponential { mean_ms } => Some(ExpScale::of_mean(mean_ms * 1e3)),
                    _ => None,
                })
                .collect(),
            call_errors: errors.call_errors,
            workers,
            gone: 0,
            idle: VecDeque::new(),
            wake_at: None,
            info: JobStats::new(needs, jobs),
            locks: BTreeMap::new(),
            waiters: Vec::new(),
            in_flight: 0,
            bucket_tokens,
            bucket_at: SimTime::ZERO,
            pace_next: SimTime::ZERO,
            subs: Vec::new(),
            subs_open: 0,
            resubmits_open: 0,
            streams,
            streams_open,
            plain,
            balance: 0,
            keys: BTreeSet::new(),
            effected_requests: BTreeSet::new(),
            counters: Counters::default(),
            log: EventLog::new(),
            names,
            events: 0,
            stopped: None,
            depth: DepthSeries::new(bucket),
            calls_series: Vec::new(),
            calls_bucket: bucket,
            cfg,
        })
    }
}
