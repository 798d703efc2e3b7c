"""The self-test on the real Pi backend (MockFactory + fake OLED bus) and virtual time,
with a scripted :class:`Maker` who answers its prompts by driving pins."""

from __future__ import annotations

import heapq
import itertools
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from firmware.selftest import Ask, Report, SelfTest, Step
from hal.config import REFERENCE_CONFIG, UnitConfig, load_config, parse_config
from hal.events import Button, Event
from hal.testing import MockPi, mock_pi_hal

YES, NO, CHIP = Button.YES, Button.NO, Button.CHIP


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and a.convert("1").tobytes() == b.convert("1").tobytes()


def reference_data() -> dict[str, Any]:
    """The reference unit.toml as a dict, to change and pass to :func:`parse_config`."""
    return tomllib.loads(REFERENCE_CONFIG.read_text(encoding="utf-8"))


def config_of(data: dict[str, Any]) -> UnitConfig:
    return parse_config(data)


@dataclass
class Maker:
    """The person at the unit, on virtual time: reacts to each new :class:`Ask`.

    ``broken``: (seat, button) whose press reaches no pin; ``wired_to``: (seat, button)
    -> the button whose pin it really drives (a swapped wire); ``fumble``: (seat, button)
    -> a wrong button pressed first. The buzzer and LED questions are answered from
    the pins (a buzzer that sounded, an LED pin driven high).
    """

    pi: MockPi
    reaction: float = 0.5
    hold: float = 0.1
    broken: set[tuple[int, Button]] = field(default_factory=set)
    wired_to: dict[tuple[int, Button], Button] = field(default_factory=dict)
    fumble: dict[tuple[int, Button], Button] = field(default_factory=dict)
    shake_edges: int = 40
    shake_period: float = 0.025
    interrupt_in: Step | None = None
    selftest: SelfTest | None = None
    film: list[list[Image.Image]] | None = None  #: a list: the panels at every wait
    glass: dict[Step, list[Image.Image]] = field(default_factory=dict)  #: last seen per step
    glass_at: dict[Ask, list[Image.Image]] = field(default_factory=dict)  #: when first asked
    _handled: set[Ask] = field(default_factory=set)
    _glass_cache: dict[int, tuple[Any, Image.Image]] = field(default_factory=dict)
    _todo: list[tuple[float, int, Callable[[], None]]] = field(default_factory=list)
    _seq: Iterator[int] = field(default_factory=itertools.count)

    def block(self, timeout: float) -> Event | None:
        """Stands in for ``hal.events.get(timeout)``: act or let time pass."""
        st = self.selftest
        assert st is not None
        clock = self.pi.clock
        if st.step is not None:
            self.glass[st.step] = self.panels()
            if self.film is not None:
                self.film.append(self.glass[st.step])
        if st.step is self.interrupt_in:
            raise KeyboardInterrupt
        for ask in st.asks:
            if ask not in self._handled:
                self._handled.add(ask)
                self.glass_at[ask] = self.panels()
                self._react(ask, clock.now())
        end = clock.now() + timeout
        if self._todo and self._todo[0][0] <= end:
            t, _, action = heapq.heappop(self._todo)
            clock.set(max(t, clock.now()))
            action()
            return self.pi.hal.events.get(0)
        clock.set(end)
        return None

    def panels(self) -> list[Image.Image]:
        """Every seat's glass (re-rendered only after bus traffic to that panel)."""
        out = []
        for i, emulator in enumerate(self.pi.displays):
            traffic = (emulator.command_bytes, emulator.data_bytes)
            if self._glass_cache.get(i, (None,))[0] != traffic:
                self._glass_cache[i] = (traffic, emulator.glass())
            out.append(self._glass_cache[i][1])
        return out

    def at(self, t: float, action: Callable[[], None]) -> None:
        heapq.heappush(self._todo, (t, next(self._seq), action))

    def press(self, t: float, seat: int, button: Button) -> None:
        """Press and release a physical button at ``t`` (through its real wiring)."""
        if (seat, button) in self.broken:
            return
        pin = self.wired_to.get((seat, button), button)
        self.at(t, lambda: self.pi.press(seat, pin))
        self.at(t + self.hold, lambda: self.pi.release(seat, pin))

    def _react(self, ask: Ask, now: float) -> None:
        t = now + self.reaction
        if ask.step is Step.BUTTONS:
            assert ask.seat is not None and ask.button is not None
            if (other := self.fumble.get((ask.seat, ask.button))) is not None:
                self.press(t, ask.seat, other)
                t += 1.0
            self.press(t, ask.seat, ask.button)
        elif ask.step is Step.SHAKER:
            for i in range(self.shake_edges):
                self.at(t + i * self.shake_period, self.pi.shaker_edge)
        elif ask.step is Step.BUZZER:
            pin = self.pi.pin(self.pi.config.buzzer.pin)  # type: ignore[union-attr]
            self.press(t + 1.0, 0, YES if pin.frequency and pin.state > 0 else NO)
        elif ask.step is Step.LEDS:
            assert ask.seat is not None
            led = self.pi.config.seats[ask.seat].led
            self.press(t, 1, YES if led is not None and self.pi.pin(led).state else NO)


@dataclass
class Run:
    report: Report
    maker: Maker
    pi: MockPi
    lines: list[str]
    glass_after: list[Image.Image]  #: the panels when run() returned (before the HAL closed)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@dataclass
class Bench:
    """A mocked Pi and its Maker; :meth:`start` runs the self-test to its report."""

    pi: MockPi
    maker: Maker
    config: UnitConfig
    selftest_kwargs: dict[str, Any]

    def start(self, **settings: Any) -> Run:
        """Run the self-test, the maker set up with ``settings`` (its attributes)."""
        for name, value in settings.items():
            setattr(self.maker, name, value)
        lines: list[str] = []
        self.maker.selftest = SelfTest(
            self.pi.hal,
            self.config,
            out=lines.append,
            block=self.maker.block,
            **self.selftest_kwargs,
        )
        report = self.maker.selftest.run()
        return Run(report, self.maker, self.pi, lines, self.maker.panels())


@contextmanager
def selftest_on(
    config: UnitConfig | None = None, *, unplugged: tuple[int, ...] = (), **selftest_kwargs: Any
) -> Iterator[Bench]:
    """A mocked Pi that keeps failed displays (as ``switch16 selftest`` does), with a Maker."""
    config = config or load_config(REFERENCE_CONFIG)
    with mock_pi_hal(config, unplugged=unplugged, keep_failed_displays=True) as pi:
        pi.events()
        yield Bench(pi, Maker(pi), config, selftest_kwargs)
