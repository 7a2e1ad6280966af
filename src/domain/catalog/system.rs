//! The system picture: what triggers each process and what it triggers — another process of
//! the catalog or an outside actor (a user, an outside system, a clock) — and the graph the
//! catalog draws from it.
//!
//! Each process keeps its own links ([`Process::links`](super::Process::links)), in the
//! order given, in the catalog file and in storage. A link names the other end by its
//! [`ProcessId`], so renames and reorders keep it; when that process is deleted the link
//! stays, shown as broken ([`Node::Missing`]) and reported ([`findings()`]) until the user
//! links another process or removes it. Both ends may name the same trigger (A "triggers" B
//! and B "triggered by" A): the graph holds it once.
//!
//! | part | module |
//! |---|---|
//! | the links, the nodes and edges | this module |
//! | the findings: a cycle, a link to a missing process | [`findings()`] |
//! | the layered layout (layers by longest path, order by barycenter) | [`layout`] |
//! | the SVG with its text alternative, the mermaid block; the words of a link | [`draw`] |
//! | the form adding a link and the list of links, as HTML for the page | [`editor`] |
//! | the words: fields, actor kinds, edge labels | [`words`] |

pub mod draw;
pub mod editor;
pub mod findings;
pub mod layout;
pub mod words;

pub use findings::{findings, SystemFinding};

use super::{Catalog, ProcessId, MAX_NAME_CHARS};
use crate::domain::flowchart::Outcome;
use crate::domain::Lang;
use crate::text::t;
use serde::{Deserialize, Serialize};

/// The most links one process holds (a process triggered by, or triggering, more than this
/// is a diagram no one reads; a file with more is refused naming `processes[i].links`).
pub const MAX_LINKS: usize = 50;

/// Which way a link points, seen from the process that holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Direction {
    /// The other end starts this process (the field "Triggered by").
    TriggeredBy,
    /// This process starts the other end (the field "Triggers").
    Triggers,
}

impl Direction {
    /// Both, in the order the form offers them.
    pub const ALL: [Direction; 2] = [Direction::Triggers, Direction::TriggeredBy];

    /// The stable id: `triggered-by` or `triggers`.
    pub fn id(self) -> &'static str {
        match self {
            Direction::TriggeredBy => "triggered-by",
            Direction::Triggers => "triggers",
        }
    }
}

/// What kind of outside actor starts a process or is started by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ActorKind {
    /// A person: a guest, an operator.
    User,
    /// An outside system: a partner's API, a payment provider, a mail service.
    System,
    /// A clock: a scheduler, cron.
    Clock,
    /// Anything else (an event from a device, a file drop…).
    Other,
}

impl ActorKind {
    /// Every kind, in the order the form offers them.
    pub const ALL: [ActorKind; 4] = [
        ActorKind::User,
        ActorKind::System,
        ActorKind::Clock,
        ActorKind::Other,
    ];

    /// The stable id: `user`, `system`, `clock`, `other`.
    pub fn id(self) -> &'static str {
        match self {
            ActorKind::User => "user",
            ActorKind::System => "system",
            ActorKind::Clock => "clock",
            ActorKind::Other => "other",
        }
    }
}

/// An outside actor: its kind and the name the team gives it (may be empty: the kind
/// alone; at most [`MAX_NAME_CHARS`] characters).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Actor {
    /// What it is.
    pub kind: ActorKind,
    /// Its name, e.g. "channel manager" (trimmed when the graph is built).
    pub name: String,
}

/// The other end of a link. JSON: `{"process":"p-2"}` or
/// `{"actor":{"kind":"clock","name":"nightly 02:00"}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Other {
    /// A process of the catalog, by id (it may since have been deleted: a broken link).
    Process(ProcessId),
    /// Something outside the catalog.
    Actor(Actor),
}

/// How the trigger reaches the process it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Via {
    /// A call that waits for the answer.
    Sync,
    /// A job put on a queue.
    Enqueue,
    /// A time on a schedule.
    Schedule,
}

impl Via {
    /// Every kind, in the order the form offers them.
    pub const ALL: [Via; 3] = [Via::Sync, Via::Enqueue, Via::Schedule];

    /// The stable id: `sync`, `enqueue`, `schedule`.
    pub fn id(self) -> &'static str {
        match self {
            Via::Sync => "sync",
            Via::Enqueue => "enqueue",
            Via::Schedule => "schedule",
        }
    }

    /// How a process with `outcome` is started: a synchronous process is called, an
    /// asynchronous one gets a job enqueued, a batch runs on its schedule.
    pub fn for_outcome(outcome: Outcome) -> Via {
        match outcome {
            Outcome::Sync | Outcome::SyncTimeout => Via::Sync,
            Outcome::AsyncEnqueue | Outcome::AsyncTicket => Via::Enqueue,
            Outcome::Batch => Via::Schedule,
        }
    }
}

/// One link a process holds. JSON:
/// `{"direction":"triggers","other":{"process":"p-2"},"via":"enqueue"}` (`via` left out:
/// taken from the started process's outcome, [`Graph::edges`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Link {
    /// Which way it points.
    pub direction: Direction,
    /// The other end.
    pub other: Other,
    /// How the trigger travels, when the user chose it (`None`: from the started process's
    /// outcome; a started outside actor is called, `sync`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<Via>,
}

impl Link {
    /// The link the system form's values describe (the form the export worker draws,
    /// [`editor`]): `holder` the id of the process to hold it, `relation` a
    /// [`Direction::id`], `other` `p:<process id>` or `a:<actor kind id>`, `name` the actor's
    /// name (used for an actor only), `via` a [`Via::id`] or empty (from the outcome).
    /// `None` for values no option of the form gives.
    pub fn from_form(
        holder: &str,
        relation: &str,
        other: &str,
        name: &str,
        via: &str,
    ) -> Option<(ProcessId, Link)> {
        let direction = Direction::ALL.into_iter().find(|d| d.id() == relation)?;
        let other = match other.split_once(':')? {
            ("p", id) if ProcessId::is_valid(id) => Other::Process(ProcessId(id.to_owned())),
            ("a", kind) => Other::Actor(Actor {
                kind: ActorKind::ALL.into_iter().find(|k| k.id() == kind)?,
                name: name.trim().to_owned(),
            }),
            _ => return None,
        };
        let via = match via {
            "" => None,
            v => Some(Via::ALL.into_iter().find(|w| w.id() == v)?),
        };
        ProcessId::is_valid(holder).then(|| {
            (
                ProcessId(holder.to_owned()),
                Link {
                    direction,
                    other,
                    via,
                },
            )
        })
    }
}

/// Why a link was not added ([`Catalog::add_link`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkError {
    /// The process to hold the link, or the process linked to, is not in the catalog.
    NoSuchProcess(ProcessId),
    /// The process already holds [`MAX_LINKS`] links.
    TooMany,
    /// The actor's name is longer than [`MAX_NAME_CHARS`] characters.
    NameTooLong,
}

impl LinkError {
    /// The refusal in `lang`, naming the field and what is allowed.
    pub fn message(&self, lang: Lang) -> String {
        let l = lang.code();
        match self {
            LinkError::NoSuchProcess(id) => {
                t!("system.refused.no-process", locale = l, id = id.as_str()).into_owned()
            }
            LinkError::TooMany => {
                t!("system.refused.too-many", locale = l, max = MAX_LINKS).into_owned()
            }
            LinkError::NameTooLong => {
                t!("system.refused.name", locale = l, max = MAX_NAME_CHARS).into_owned()
            }
        }
    }
}

impl Catalog {
    /// Adds `link` to the process `id` (a link it already holds is not added twice; the
    /// actor's name is trimmed).
    ///
    /// # Errors
    /// [`LinkError`]: `id`, or the process linked to, not in the catalog; already
    /// [`MAX_LINKS`] links; an actor's name over [`MAX_NAME_CHARS`] characters.
    pub fn add_link(&mut self, id: &ProcessId, mut link: Link) -> Result<(), LinkError> {
        match &mut link.other {
            Other::Process(to) if self.get(to).is_none() => {
                return Err(LinkError::NoSuchProcess(to.clone()))
            }
            Other::Actor(a) => {
                a.name = a.name.trim().to_owned();
                if a.name.chars().count() > MAX_NAME_CHARS {
                    return Err(LinkError::NameTooLong);
                }
            }
            Other::Process(_) => {}
        }
        let p = self
            .get_mut(id)
            .ok_or_else(|| LinkError::NoSuchProcess(id.clone()))?;
        if p.links
            .iter()
            .any(|l| l.direction == link.direction && l.other == link.other)
        {
            return Ok(());
        }
        if p.links.len() >= MAX_LINKS {
            return Err(LinkError::TooMany);
        }
        p.links.push(link);
        Ok(())
    }

    /// Removes the process `id`'s link at `index` (nothing when either does not exist).
    pub fn remove_link(&mut self, id: &ProcessId, index: usize) {
        if let Some(p) = self.get_mut(id) {
            if index < p.links.len() {
                p.links.remove(index);
            }
        }
    }

    /// Whether any process holds a link (the system picture has something to draw).
    pub fn has_links(&self) -> bool {
        self.processes.iter().any(|p| !p.links.is_empty())
    }
}

/// A node of the system graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// The catalog's process at this index.
    Process(usize),
    /// An outside actor (kind and trimmed name; one node however many processes name it).
    Actor(Actor),
    /// A process id a link names that the catalog no longer has.
    Missing(ProcessId),
}

/// One edge: `from` starts `to` (indices into [`Graph::nodes`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    /// The node that triggers.
    pub from: usize,
    /// The node triggered.
    pub to: usize,
    /// How (the link's choice, else from the target's outcome; `None`: the target is
    /// undecided or missing).
    pub via: Option<Via>,
    /// The process holding the link the edge comes from (the first, when both ends name it)
    /// and the link's index there.
    pub origin: (usize, usize),
}

/// The system as a graph: every process (catalog order), then the outside actors and the
/// missing processes in the order the links name them; the edges in the order of the links.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Graph {
    /// The nodes.
    pub nodes: Vec<Node>,
    /// The edges, at most one per (from, to).
    pub edges: Vec<Edge>,
}

impl Graph {
    /// The graph of `c`'s links.
    pub fn of(c: &Catalog) -> Graph {
        let mut g = Graph {
            nodes: (0..c.processes.len()).map(Node::Process).collect(),
            edges: Vec::new(),
        };
        for (pi, p) in c.processes.iter().enumerate() {
            for (li, link) in p.links.iter().enumerate() {
                let other = match &link.other {
                    Other::Process(id) => match c.position(id) {
                        Some(at) => at,
                        None => g.node(Node::Missing(id.clone())),
                    },
                    Other::Actor(a) => g.node(Node::Actor(Actor {
                        kind: a.kind,
                        name: a.name.trim().to_owned(),
                    })),
                };
                let (from, to) = match link.direction {
                    Direction::Triggers => (pi, other),
                    Direction::TriggeredBy => (other, pi),
                };
                if g.edges.iter().any(|e| e.from == from && e.to == to) {
                    continue;
                }
                let via = link.via.or_else(|| match &g.nodes[to] {
                    Node::Process(i) => c.processes[*i].outcome.map(Via::for_outcome),
                    Node::Actor(_) => Some(Via::Sync),
                    Node::Missing(_) => None,
                });
                g.edges.push(Edge {
                    from,
                    to,
                    via,
                    origin: (pi, li),
                });
            }
        }
        g
    }

    fn node(&mut self, n: Node) -> usize {
        if let Some(at) = self.nodes.iter().position(|m| *m == n) {
            return at;
        }
        self.nodes.push(n);
        self.nodes.len() - 1
    }

    /// The node's label: the process's display name, the actor's name (or its kind when
    /// unnamed), or the missing id.
    pub fn label(&self, c: &Catalog, node: usize, lang: Lang) -> String {
        match &self.nodes[node] {
            Node::Process(i) => super::export::display_name(&c.processes[*i]),
            Node::Actor(a) if a.name.is_empty() => words::actor_kind(a.kind, lang),
            Node::Actor(a) => a.name.clone(),
            Node::Missing(id) => id.to_string(),
        }
    }
}
