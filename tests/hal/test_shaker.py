"""The shaker: realistic pulse trains on the mocked switch input, and the pure detector."""

from __future__ import annotations

from hal.events import RollRequested, ShakeStarted, ShakeStopped
from hal.shake import ShakeDetector, ShakeThresholds
from hal.testing import MockPi


def pulse_train(mock: MockPi, times: list[float]) -> list:
    """Toggle the switch at the given absolute times, polling as the loop would."""
    events = []
    for t in times:
        events += mock.advance(t - mock.clock.now())
        mock.shaker_edge()
    return events + mock.events()


def burst(start: float, seconds: float, hz: float) -> list[float]:
    return [start + i / hz for i in range(int(seconds * hz))]


def test_burst_starts_and_stops_with_duration(mock: MockPi) -> None:
    times = burst(1.0, 1.5, 40)  # 1.5 s of shaking, an edge every 25 ms
    events = pulse_train(mock, times) + mock.advance(1.0)
    started = [e for e in events if isinstance(e, ShakeStarted)]
    stopped = [e for e in events if isinstance(e, ShakeStopped)]
    assert len(started) == 1 and len(stopped) == 1
    assert abs(started[0].t - times[5]) < 1e-9  # the 6th edge within 300 ms
    stop = stopped[0]
    assert not stop.capped and stop.edges == len(times) == stop.energy
    assert abs(stop.duration - (times[-1] - times[0])) < 1e-9
    assert abs(stop.t - (times[-1] + mock.config.shaker.stop_quiet_s)) < 1e-9
    assert mock.hal.next_deadline() is None


def test_chatter_below_threshold_is_ignored(mock: MockPi) -> None:
    # 5 edges per 300 ms window never reach the 6 needed; spread chatter for 3 s
    times = [0.5 + 0.07 * i for i in range(40)]
    events = pulse_train(mock, times) + mock.advance(2.0)
    assert events == []


def test_sensor_latched_high_never_shakes(mock: MockPi) -> None:
    mock.shaker_edge()  # one edge to high, then stuck there
    assert mock.advance(30.0) == []
    assert not mock.hal.shaker.shaking


def test_roll_is_capped_and_needs_quiet_to_restart(mock: MockPi) -> None:
    cap = mock.config.shaker.max_roll_s
    times = burst(0.0, cap + 3.0, 50)  # someone never stops shaking
    events = pulse_train(mock, times) + mock.advance(1.0)
    kinds = [type(e) for e in events]
    assert kinds == [ShakeStarted, ShakeStopped]
    stop = events[1]
    assert stop.capped and stop.duration == cap and abs(stop.t - cap) < 1e-9
    more = pulse_train(mock, burst(mock.clock.now(), 0.5, 50)) + mock.advance(1.0)
    assert [type(e) for e in more] == [ShakeStarted, ShakeStopped]


def test_request_roll_is_the_fallback(mock: MockPi) -> None:
    mock.clock.set(2.0)
    mock.hal.shaker.request_roll(1)
    assert mock.events() == [RollRequested(2.0, 1)]


def test_detector_takes_weighted_samples_from_any_driver() -> None:
    # an accelerometer driver would feed fewer, stronger samples
    detector = ShakeDetector(
        ShakeThresholds(start_energy=6, start_window=0.3, stop_quiet=0.4, max_roll=4.0)
    )
    assert detector.sample(0.0, 2.5) == []
    assert detector.sample(0.1, 2.5) == []
    assert detector.sample(0.2, 2.0) == [ShakeStarted(0.2)]
    assert detector.next_deadline() == 0.2 + 0.4
    assert detector.poll(0.59) == []
    (stop,) = detector.poll(0.61)
    assert isinstance(stop, ShakeStopped) and abs(stop.t - 0.6) < 1e-9
    assert (abs(stop.duration - 0.2) < 1e-9, stop.edges, stop.energy) == (True, 3, 7.0)
    assert detector.next_deadline() is None
