//! The one simulation-worker session of the page ([`use_sim_run`]), used by the Simulate
//! screen and by Compare, each with its own worker: it starts the worker lazily, numbers the
//! runs, sends typed requests ([`RunRequest`] of a [`RunSpec`]), reads the worker's typed
//! answers ([`RunMessage`]) and passes on only those of the current run ([`RunEvent`]);
//! cancelling terminates the worker (the only way to stop a run in progress). The protocol
//! itself is in the domain (`domain::sim::runner`).

use crate::domain::sim::runner::{
    CapacityError, CapacityRequest, CapacityView, CompareRequest, LogRequest, RunMessage,
    RunRequest, RunSpec, RunView,
};
use crate::ui::browser::SimWorker;
use crate::ui::simulate::event_log::LogAnswer;
use crate::ui::simulate::labels::Problem;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// What the session tells its screen.
#[derive(Debug, Clone, PartialEq)]
pub enum RunEvent {
    /// The current run has processed this many events.
    Progress(u64),
    /// The current run finished; its view carries its run id ([`RunView::run_id`]).
    Done(Rc<RunView>),
    /// The worker refused the current run (typed findings).
    Failed(Vec<Problem>),
    /// An answer about a run's log lines.
    Log(LogAnswer),
    /// About the current capacity request.
    Size(SizeEvent),
}

/// What the worker says about the current capacity request ([`SimRun::start_capacity`]).
#[derive(Debug, Clone, PartialEq)]
pub enum SizeEvent {
    /// `done` of `total` runs of the sweep.
    Progress(u64, u64),
    /// The answer, drawn.
    Done(Rc<CapacityView>),
    /// Refused, typed (worded in the page's language when shown).
    Failed(CapacityError),
}

/// A handle on the session (cheap to clone; every clone is the same session).
#[derive(Clone)]
pub struct SimRun {
    worker: Rc<RefCell<Option<SimWorker>>>,
    run_id: Rc<RefCell<u64>>,
    listener: Rc<RefCell<Callback<RunEvent>>>,
}

impl PartialEq for SimRun {
    fn eq(&self, other: &SimRun) -> bool {
        Rc::ptr_eq(&self.worker, &other.worker)
    }
}

/// The page's worker session for one screen. Call [`SimRun::listen`] on every render with
/// the screen's handler (it sees the render's state).
#[hook]
pub fn use_sim_run() -> SimRun {
    let worker = use_mut_ref(|| None::<SimWorker>);
    let run_id = use_mut_ref(|| 0u64);
    let listener = use_mut_ref(Callback::<RunEvent>::noop);
    SimRun {
        worker,
        run_id,
        listener,
    }
}

impl SimRun {
    /// Sets the handler of this session's events (the latest one set gets them).
    pub fn listen(&self, on_event: Callback<RunEvent>) {
        *self.listener.borrow_mut() = on_event;
    }

    /// Starts `spec` as a new run (the worker starts if none is running); its answers come
    /// as [`RunEvent`]s, older runs' answers are dropped. Returns the run's id.
    ///
    /// # Errors
    /// The browser refused to start the worker ([`Problem::WorkerStart`]) or to pass the
    /// request on ([`Problem::Other`]).
    pub fn start(&self, spec: &RunSpec) -> Result<u64, Problem> {
        self.start_compared(spec, None)
    }

    /// [`SimRun::start`], compared with this session's previous run `with` (its id): the
    /// worker then also draws both runs' charts on shared scales, the differences and the
    /// event logs ([`CompareRequest`]); `same_why` is B's one change, if B is one.
    ///
    /// # Errors
    /// As [`SimRun::start`].
    pub fn start_compared(
        &self,
        spec: &RunSpec,
        with: Option<(u64, Option<String>)>,
    ) -> Result<u64, Problem> {
        self.spawn().map_err(Problem::WorkerStart)?;
        let id = *self.run_id.borrow() + 1;
        *self.run_id.borrow_mut() = id;
        let run = RunRequest::new(id, spec)
            .ok_or_else(|| Problem::Other("config files run on the command line".into()))?;
        let json = match with {
            Some((with, why)) => crate::domain::json::compact(&CompareRequest {
                run,
                with,
                same_why: why,
            }),
            None => crate::domain::json::compact(&run),
        };
        self.worker
            .borrow()
            .as_ref()
            .map_or(Ok(()), |w| w.send(&json))
            .map_err(Problem::Other)?;
        Ok(id)
    }

    /// Starts sizing `request` (its id is set here) as the session's current request; its
    /// answers come as [`RunEvent::Size`], older requests' answers are dropped.
    ///
    /// # Errors
    /// As [`SimRun::start`].
    pub fn start_capacity(&self, mut request: CapacityRequest) -> Result<u64, Problem> {
        self.spawn().map_err(Problem::WorkerStart)?;
        let id = *self.run_id.borrow() + 1;
        *self.run_id.borrow_mut() = id;
        request.id = id;
        self.worker
            .borrow()
            .as_ref()
            .map_or(Ok(()), |w| w.send(&request.to_json()))
            .map_err(Problem::Other)?;
        Ok(id)
    }

    /// Stops the run in progress by terminating the worker; the log it held goes with it.
    pub fn cancel(&self) {
        self.worker.borrow_mut().take();
        *self.run_id.borrow_mut() += 1;
    }

    /// Asks the worker for log lines; `false` when no worker holds a log (it was stopped, or
    /// has not loaded).
    pub fn request_log(&self, req: &LogRequest) -> bool {
        let json = crate::domain::json::compact(req);
        self.worker
            .borrow()
            .as_ref()
            .is_some_and(|w| w.is_ready() && w.send(&json).is_ok())
    }

    fn spawn(&self) -> Result<(), String> {
        if self.worker.borrow().is_some() {
            return Ok(());
        }
        let (run_id, listener) = (self.run_id.clone(), self.listener.clone());
        let on_message = Callback::from(move |text: String| {
            // Neither cell stays borrowed while the handler runs: it may start the next run.
            let current = *run_id.borrow();
            let Some(event) = event_of(&text, current) else {
                return;
            };
            let handler = listener.borrow().clone();
            handler.emit(event);
        });
        *self.worker.borrow_mut() = Some(SimWorker::spawn(on_message)?);
        Ok(())
    }
}

/// The event a worker message (the compact form, `runner::wire`) makes for a session whose current run is
/// `current`: `None` for an unreadable message or an older run's answer.
fn event_of(text: &str, current: u64) -> Option<RunEvent> {
    match crate::domain::sim::runner::wire::decode(text).ok()? {
        RunMessage::Progress { id, events } if id == current => Some(RunEvent::Progress(events)),
        RunMessage::Done { id, view } if id == current => Some(RunEvent::Done(Rc::new(*view))),
        RunMessage::Failed { id, errors } if id == current => Some(RunEvent::Failed(
            errors.into_iter().map(Problem::Config).collect(),
        )),
        RunMessage::LogSlice {
            id, from, entries, ..
        } => Some(RunEvent::Log(LogAnswer::Slice {
            id,
            from,
            entries: Rc::new(entries),
        })),
        RunMessage::LogError { id, .. } => Some(RunEvent::Log(LogAnswer::Gone { id })),
        RunMessage::SizeProgress { id, done, total } if id == current => {
            Some(RunEvent::Size(SizeEvent::Progress(done, total)))
        }
        RunMessage::Sized { id, view } if id == current => {
            Some(RunEvent::Size(SizeEvent::Done(Rc::new(*view))))
        }
        RunMessage::SizeFailed { id, error } if id == current => {
            Some(RunEvent::Size(SizeEvent::Failed(error)))
        }
        _ => None,
    }
}
