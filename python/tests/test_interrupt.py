"""Long calls honour `timeout` (raising verikit.Timeout promptly) and Ctrl-C (KeyboardInterrupt,
through the budget's cancel flag), and release the GIL while they run. No timing assertions beyond
"it came back" (the machine may be loaded): the interrupted calls would run for minutes."""

from __future__ import annotations

import _thread
import threading

import pytest

import verikit
from verikit import nfa
from conftest import data

HARD = "true-IBakery5PUnrEnc-FbOneOne-Nondet-Partial-A-1"


def hard_pair():
    d = data("nfa/armc-incl")
    l, r = d / f"{HARD}-lhs.mata", d / f"{HARD}-rhs.mata"
    if not l.exists():
        pytest.skip(f"{HARD} missing from the shared data")
    return nfa.load(l), nfa.load(r)


def test_timeout_raises_timeout():
    a, b = hard_pair()
    with pytest.raises(verikit.Timeout) as e:
        a.equivalent(b, algo="naive", timeout=1)
    assert isinstance(e.value, TimeoutError) and isinstance(e.value, verikit.ResourceLimit)


def test_keyboard_interrupt_cancels_the_call():
    a, b = hard_pair()
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            a.equivalent(b, algo="naive", timeout=600)
    finally:
        timer.cancel()


def test_gil_is_released_during_a_call():
    a, b = hard_pair()
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(1)
            stop.wait(0.01)

    t = threading.Thread(target=count)
    t.start()
    try:
        with pytest.raises(verikit.Timeout):
            a.equivalent(b, algo="naive", timeout=1)
    finally:
        stop.set()
        t.join()
    # A thread that needs the GIL ran while the engine worked.
    assert len(ticks) > 5
