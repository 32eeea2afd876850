//! The timely-dataflow plumbing of the distributed engine (DiVinE's distributed scheme: Barnat,
//! Brim, Černá, Moravec, Ročkai, Šimeček — "DiVinE: a tool for distributed verification", CAV
//! 2006, §2: each workstation owns the states a partition function assigns to it and sends the
//! others' states to their owners). Where the workers run ([`Cluster`]: threads of one process,
//! or timely's cluster mode, one process per hostfile line) and how they talk ([`Exchanger`]).
//!
//! Each worker builds one dataflow: an input of byte records, routed by timely's `Exchange` pact
//! (a state to the owner its partition hash names, a control record to the worker it names), into
//! an operator that only moves what it receives into the worker's inbox; a probe after it. The
//! algorithms (`dist_reach`, `dist_owcty`) run in rounds: a worker sends its records at the
//! current epoch, advances the input, and steps the worker until the probe has passed the epoch —
//! timely's progress tracking then guarantees that every record of the round, from every
//! worker of every process, is in its owner's inbox. Each round also carries one control record
//! per peer with the number of states the sender sent and a few counters, so every worker ends a
//! round knowing the sums over all workers (the all-reduce that decides termination: a round in
//! which no worker sent a state ends a search).

use crate::parallel_reach::{partition, NO_PARENT};
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::Operator;
use timely::dataflow::operators::{Input, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;

/// Where the workers of a distributed run live.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cluster {
    /// Worker threads per process.
    pub workers: usize,
    /// This process's index, `0..hosts.len()` (0 when `hosts` is empty).
    pub process: usize,
    /// `host:port` of every process, in process order (empty: one process).
    pub hosts: Vec<String>,
    /// How long the processes of a cluster may take to connect to each other before the run
    /// gives up (timely's own setup retries forever when a peer is missing).
    pub connect_timeout: Duration,
}

/// The default of `-x mc.connect-timeout` in seconds.
pub(crate) const DEFAULT_CONNECT_TIMEOUT_S: u64 = 30;

impl Cluster {
    /// `workers` threads in this process.
    pub fn local(workers: usize) -> Cluster {
        Cluster {
            workers: workers.max(1),
            process: 0,
            hosts: Vec::new(),
            connect_timeout: Duration::from_secs(DEFAULT_CONNECT_TIMEOUT_S),
        }
    }

    /// Process `process` of `processes`, each with `workers` threads; `hostfile` is the text of a
    /// file with one `host:port` line per process (timely's `-h` format; blank lines and `#`
    /// comments are skipped, lines beyond the first `processes` ignored).
    pub fn from_hostfile(
        workers: usize,
        processes: usize,
        process: usize,
        hostfile: &str,
    ) -> Result<Cluster, String> {
        let hosts: Vec<String> = hostfile
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .take(processes)
            .map(str::to_string)
            .collect();
        if processes == 0 {
            return Err("--processes must be at least 1".into());
        }
        if hosts.len() < processes {
            return Err(format!(
                "the hostfile names {} host(s); --processes {processes} needs one `host:port` line per process",
                hosts.len()
            ));
        }
        if process >= processes {
            return Err(format!(
                "--process {process}: expected 0..{} (one index per process)",
                processes - 1
            ));
        }
        if let Some(bad) = hosts.iter().find(|h| !h.contains(':')) {
            return Err(format!("hostfile line `{bad}`: expected host:port"));
        }
        Ok(Cluster {
            workers: workers.max(1),
            process,
            hosts,
            connect_timeout: Duration::from_secs(DEFAULT_CONNECT_TIMEOUT_S),
        })
    }

    /// The same cluster with another connect timeout.
    pub fn with_connect_timeout(mut self, t: Duration) -> Cluster {
        self.connect_timeout = t;
        self
    }

    /// Number of processes.
    pub fn processes(&self) -> usize {
        self.hosts.len().max(1)
    }

    /// Workers over all processes.
    pub fn total_workers(&self) -> usize {
        self.processes() * self.workers
    }

    pub(crate) fn config(&self) -> timely::Config {
        let communication = if self.hosts.len() > 1 {
            timely::CommunicationConfig::Cluster {
                threads: self.workers,
                process: self.process,
                addresses: self.hosts.clone(),
                report: false,
                zerocopy: false,
            }
        } else if self.workers > 1 {
            timely::CommunicationConfig::Process(self.workers)
        } else {
            timely::CommunicationConfig::Thread
        };
        timely::Config {
            communication,
            worker: timely::WorkerConfig::default(),
        }
    }
}

/// `[tag; state]`: a state for its owner.
const TAG_STATE: u8 = 0;
/// `[tag; dest; sender's counters…]`: a control record for worker `dest`.
const TAG_SUMS: u8 = 1;
/// `[tag; parent global id; state]`: a state for its owner, with the id of the state it was
/// generated from (for the counterexample trace-back).
const TAG_LINKED: u8 = 2;
/// `[tag; dest; parent global id; state]`: a state for worker `dest` (the trace-back's steps).
const TAG_DIRECT: u8 = 3;

/// The destination worker of a record: a state's owner, or the worker a record names.
fn route(r: &[u8], peers: usize) -> u64 {
    match r.split_first() {
        Some((&(TAG_SUMS | TAG_DIRECT), rest)) => read_u64(rest, 0),
        Some((&TAG_LINKED, rest)) => partition(rest.get(8..).unwrap_or(&[]), peers) as u64,
        Some((_, state)) => partition(state, peers) as u64,
        None => 0,
    }
}

/// The parent id (`NO_PARENT` when the record has none) and the state of a received record.
pub(crate) fn record_state(r: &[u8]) -> (u64, &[u8]) {
    match r.split_first() {
        Some((&TAG_LINKED, rest)) => (read_u64(rest, 0), rest.get(8..).unwrap_or(&[])),
        Some((&TAG_DIRECT, rest)) => (read_u64(rest, 1), rest.get(16..).unwrap_or(&[])),
        Some((_, state)) => (NO_PARENT, state),
        None => (NO_PARENT, &[]),
    }
}

fn read_u64(b: &[u8], k: usize) -> u64 {
    b.get(8 * k..8 * k + 8)
        .and_then(|s| s.try_into().ok())
        .map_or(0, u64::from_le_bytes)
}

/// One worker's end of the exchange.
/// Received state batches, each with the epoch (round) it belongs to.
type Inbox = Rc<RefCell<Vec<(u64, Vec<Vec<u8>>)>>>;

pub(crate) struct Exchanger {
    input: InputHandle<u64, timely::container::CapacityContainerBuilder<Vec<Vec<u8>>>>,
    probe: ProbeHandle<u64>,
    /// Received batches by epoch: a faster worker's records of the next round may arrive before
    /// this worker has ended the current one.
    inbox: Inbox,
    pub(crate) me: usize,
    pub(crate) peers: usize,
    sent: u64,
    /// Serialised bytes of the state records this worker sent to other workers (timely encodes
    /// a `Vec<u8>` record with bincode: an 8-byte length, then the bytes).
    pub(crate) bytes: u64,
    /// State records this worker sent to other workers.
    pub(crate) records: u64,
}

impl Exchanger {
    /// Builds the worker's dataflow.
    pub(crate) fn new(worker: &mut Worker) -> Exchanger {
        let me = worker.index();
        let peers = worker.peers().max(1);
        let mut input = InputHandle::new();
        let probe = ProbeHandle::new();
        let inbox: Inbox = Rc::default();
        let sink = Rc::clone(&inbox);
        worker.dataflow::<u64, _, _>(|scope| {
            scope
                .input_from(&mut input)
                .unary::<timely::container::CapacityContainerBuilder<Vec<()>>, _, _, _>(
                    Exchange::new(move |r: &Vec<u8>| route(r, peers)),
                    "inbox",
                    move |_, _| {
                        move |input, _output| {
                            input.for_each(|cap, data| {
                                let t = cap.least().copied().unwrap_or(0);
                                sink.borrow_mut().push((t, std::mem::take(data)));
                            });
                        }
                    },
                )
                .probe_with(&probe);
        });
        Exchanger {
            input,
            probe,
            inbox,
            me,
            peers,
            sent: 0,
            bytes: 0,
            records: 0,
        }
    }

    /// Sends `state` to its owner in this round.
    pub(crate) fn send(&mut self, state: &[u8]) {
        let mut rec = Vec::with_capacity(state.len() + 1);
        rec.push(TAG_STATE);
        rec.extend_from_slice(state);
        self.push_state(state, rec);
    }

    /// Sends `state` to its owner in this round with the global id of its `parent` (8 bytes more).
    pub(crate) fn send_linked(&mut self, state: &[u8], parent: u64) {
        let mut rec = Vec::with_capacity(state.len() + 9);
        rec.push(TAG_LINKED);
        rec.extend_from_slice(&parent.to_le_bytes());
        rec.extend_from_slice(state);
        self.push_state(state, rec);
    }

    /// Sends `state` and its `parent` id to worker `dest` in this round (not counted among the
    /// states sent: a round of direct records alone does not keep a search going).
    pub(crate) fn send_direct(&mut self, dest: usize, state: &[u8], parent: u64) {
        let mut rec = Vec::with_capacity(state.len() + 17);
        rec.push(TAG_DIRECT);
        rec.extend_from_slice(&(dest as u64).to_le_bytes());
        rec.extend_from_slice(&parent.to_le_bytes());
        rec.extend_from_slice(state);
        self.input.send(rec);
    }

    fn push_state(&mut self, state: &[u8], rec: Vec<u8>) {
        if partition(state, self.peers) != self.me {
            self.bytes += 8 + rec.len() as u64;
            self.records += 1;
        }
        self.sent += 1;
        self.input.send(rec);
    }

    /// Ends the round: returns the states this worker received (each record still starts with
    /// its one-byte tag: [`record_state`] reads it) and the sums over all workers of
    /// `[states sent this round, values…]`. Every worker must call it the same number of times.
    pub(crate) fn round(
        &mut self,
        worker: &mut Worker,
        values: &[u64],
    ) -> (Vec<Vec<u8>>, Vec<u64>) {
        let mut head = Vec::with_capacity(1 + 8 * (values.len() + 2));
        for dest in 0..self.peers {
            head.clear();
            head.push(TAG_SUMS);
            head.extend_from_slice(&(dest as u64).to_le_bytes());
            head.extend_from_slice(&self.sent.to_le_bytes());
            for v in values {
                head.extend_from_slice(&v.to_le_bytes());
            }
            self.input.send(head.clone());
        }
        self.sent = 0;
        let now = *self.input.time();
        let next = now + 1;
        self.input.advance_to(next);
        let probe = &self.probe;
        worker.step_or_park_while(Some(Duration::from_millis(1)), || probe.less_than(&next));
        let mut sums = vec![0u64; values.len() + 1];
        let mut states = Vec::new();
        let mut inbox = self.inbox.borrow_mut();
        let (this, later): (Vec<_>, Vec<_>) = inbox.drain(..).partition(|(t, _)| *t <= now);
        *inbox = later;
        for r in this.into_iter().flat_map(|(_, b)| b) {
            if r.first() == Some(&TAG_SUMS) {
                let body = r.get(9..).unwrap_or(&[]);
                for (k, s) in sums.iter_mut().enumerate() {
                    *s += read_u64(body, k);
                }
            } else {
                states.push(r);
            }
        }
        (states, sums)
    }
}
