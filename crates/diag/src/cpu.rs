//! The process's CPU time and its CPU-time limit, for budgets measured in CPU time
//! ([`crate::Budget::with_cpu_deadline`]) and the watchdog's grace period. On a loaded machine
//! a wall-clock second is a fraction of a CPU second, so "a quarter of the time left" in
//! wall-clock time is a different amount of work on every run; in CPU time it is the same.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The CPU time (user + system, all threads) this process has used so far: the kernel's
/// process CPU clock (`CLOCK_PROCESS_CPUTIME_ID`, nanoseconds), the same account the kernel
/// charges against `RLIMIT_CPU` — the tick-sampled times of `/proc/self/stat` can lag it by
/// several per cent, so a deadline read from them can come after the kernel has stopped the
/// process. `None` where the clock does not exist.
pub fn process_cpu_time() -> Option<Duration> {
    #[cfg(unix)]
    {
        let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
        Some(Duration::new(
            u64::try_from(t.tv_sec).ok()?,
            u32::try_from(t.tv_nsec).ok()?,
        ))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The soft CPU-time limit of this process (`RLIMIT_CPU`, set by `ulimit -t` or a benchmark
/// harness; the kernel stops the process when it is reached), from `/proc/self/limits` (Linux;
/// `None` when unlimited or unknown).
pub fn cpu_time_limit() -> Option<Duration> {
    parse_cpu_limit(&std::fs::read_to_string("/proc/self/limits").ok()?)
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
/// more often than that, and each reading is a system call.
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
    fn the_process_cpu_clock_runs() {
        if cfg!(unix) {
            let a = process_cpu_time().unwrap_or_default();
            let t = Instant::now();
            let mut x = 0u64;
            while t.elapsed() < Duration::from_millis(30) {
                x = x.wrapping_add(std::hint::black_box(1));
            }
            assert!(x > 0);
            assert!(process_cpu_time().is_some_and(|b| b > a));
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
