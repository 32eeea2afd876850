//! The process's CPU time and its CPU-time limit, for budgets measured in CPU time
//! ([`crate::Budget::with_cpu_deadline`]) and the watchdog's grace period. On a loaded machine
//! a wall-clock second is a fraction of a CPU second, so "a quarter of the time left" in
//! wall-clock time is a different amount of work on every run; in CPU time it is the same.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The CPU time (user + system, all threads) this process has used so far, from
/// `/proc/self/stat` (Linux; `None` elsewhere or if it cannot be read). Resolution 10 ms.
pub fn process_cpu_time() -> Option<Duration> {
    parse_proc_stat_cpu(&std::fs::read_to_string("/proc/self/stat").ok()?)
}

/// The soft CPU-time limit of this process (`RLIMIT_CPU`, set by `ulimit -t` or a benchmark
/// harness; the kernel stops the process when it is reached), from `/proc/self/limits` (Linux;
/// `None` when unlimited or unknown).
pub fn cpu_time_limit() -> Option<Duration> {
    parse_cpu_limit(&std::fs::read_to_string("/proc/self/limits").ok()?)
}

/// utime + stime (fields 14 and 15, in clock ticks of 1/100 s: Linux's `USER_HZ`) of a
/// `/proc/PID/stat` line; the command name (field 2) may contain spaces and parentheses, so the
/// fields are counted from its closing parenthesis.
fn parse_proc_stat_cpu(stat: &str) -> Option<Duration> {
    let rest = stat.get(stat.rfind(')')? + 1..)?;
    let mut fields = rest.split_whitespace().skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some(Duration::from_millis(
        utime.checked_add(stime)?.checked_mul(10)?,
    ))
}

/// The soft limit of the `Max cpu time` line of a `/proc/PID/limits` table (seconds).
fn parse_cpu_limit(limits: &str) -> Option<Duration> {
    let line = limits.lines().find(|l| l.starts_with("Max cpu time"))?;
    let soft = line
        .get("Max cpu time".len()..)?
        .split_whitespace()
        .next()?;
    soft.parse::<u64>().ok().map(Duration::from_secs)
}

/// How long a reading of the CPU clock is reused by [`cpu_time_cached`]: budgets are polled far
/// more often than the clock's 10 ms resolution, and each reading is a file read.
const CPU_READ_EVERY: Duration = Duration::from_millis(5);

/// [`process_cpu_time`], read again only when the last reading is older than
/// [`CPU_READ_EVERY`] of wall-clock time (process-wide, shared by every budget and thread).
pub(crate) fn cpu_time_cached() -> Option<Duration> {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    // Wall-clock nanoseconds since EPOCH of the last reading, and the reading plus one (0: none).
    static READ_AT: AtomicU64 = AtomicU64::new(0);
    static CPU: AtomicU64 = AtomicU64::new(0);
    let now = EPOCH.get_or_init(Instant::now).elapsed().as_nanos() as u64;
    let last = CPU.load(Ordering::Relaxed);
    if last != 0
        && now.saturating_sub(READ_AT.load(Ordering::Relaxed)) < CPU_READ_EVERY.as_nanos() as u64
    {
        return Some(Duration::from_nanos(last - 1));
    }
    let cpu = process_cpu_time()?;
    CPU.store(cpu.as_nanos() as u64 + 1, Ordering::Relaxed);
    READ_AT.store(now, Ordering::Relaxed);
    Some(cpu)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_cpu_time_from_a_stat_line() {
        let line = "4242 (a (b) c) R 1 2 3 4 5 6 7 8 9 10 123 45 0 0 20 0 3 0";
        assert_eq!(parse_proc_stat_cpu(line), Some(Duration::from_millis(1680)));
        assert_eq!(parse_proc_stat_cpu("4242 (x) R 1 2"), None);
        if cfg!(target_os = "linux") {
            assert!(process_cpu_time().is_some());
            assert!(cpu_time_cached().is_some());
        }
    }

    #[test]
    fn reads_the_soft_cpu_limit() {
        let t = "Limit                     Soft Limit           Hard Limit           Units     \n\
                 Max cpu time              3                    4                    seconds   \n\
                 Max file size             unlimited            unlimited            bytes     \n";
        assert_eq!(parse_cpu_limit(t), Some(Duration::from_secs(3)));
        let u = "Max cpu time              unlimited            unlimited            seconds   \n";
        assert_eq!(parse_cpu_limit(u), None);
        assert_eq!(parse_cpu_limit("Max file size 1 1 bytes\n"), None);
    }
}
