"""pytest plugin: the HIL tests (tests/hil) against a real link, or a labgrid rig.

Without options the ``hil_client`` fixture serves an in-process unit (the Pi backend
on gpiozero's MockFactory, emulated panels, test mode, fast timing) on one end of a
pty pair and connects to the other end, so the same tests run in CI and on a bench::

    python3 -m pytest tests/hil                                  # in-process unit
    python3 -m pytest tests/hil --hil-port /dev/ttyUSB0          # a unit on a cable
    python3 -m pytest tests/hil --hil-port rfc2217://lab:4001    # a unit on ser2net
    python3 -m pytest tests/hil --lg-env lab.yaml                # every unit of a rig

``--lg-env`` is labgrid's own option (its pytest plugin, ``pip install -e '.[lab]'``):
the tests that use ``hil_client`` run once per target of the environment, each against
the URL of that target's serial resource (:mod:`firmware.link.lab`).

Enable it with ``pytest_plugins = ["firmware.link.pytest_plugin"]`` in a conftest.
"""

from __future__ import annotations

import importlib.util
import os
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--hil-port", metavar="URL", default=None,
                     help="run tests/hil against the unit on this pyserial URL "
                     "(default: an in-process mocked unit over a pty)")  # fmt: skip
    if importlib.util.find_spec("labgrid") is None:  # else labgrid's plugin adds it
        parser.addoption("--lg-env", dest="lg_env", metavar="FILE", default=None,
                         help="a labgrid environment (needs labgrid: "
                         "pip install -e '.[lab]')")  # fmt: skip


def _lab_env(config: pytest.Config) -> str | None:
    """The labgrid environment file given (``--lg-env`` or ``$LG_ENV``), if any."""
    return getattr(config.option, "lg_env", None) or os.environ.get("LG_ENV") or None


def pytest_configure(config: pytest.Config) -> None:
    path = _lab_env(config)
    if path is not None and importlib.util.find_spec("labgrid") is None:
        raise pytest.UsageError(f"--lg-env {path}: labgrid is not installed "
                                "(pip install -e '.[lab]')")  # fmt: skip


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """With a labgrid environment, ``hil_client`` once per target (unit) in it."""
    config = metafunc.config
    if "hil_client" not in metafunc.fixturenames or config.getoption("--hil-port"):
        return
    if _lab_env(config) is None:
        return
    # lazy: labgrid, the lab extra
    from labgrid.pytestplugin.hooks import LABGRID_ENV_KEY

    targets = sorted(config.stash[LABGRID_ENV_KEY].config.get_targets())
    metafunc.parametrize("hil_target", targets, indirect=True, scope="session")


@pytest.fixture(scope="session")
def hil_target(request: pytest.FixtureRequest) -> Any:
    """The labgrid target under test (None without ``--lg-env``)."""
    name = getattr(request, "param", None)
    if name is None:
        return None
    env = request.getfixturevalue("env")  # labgrid's fixture
    return env.get_target(name)


class InProcessUnit:
    """A mocked unit serving its link on a pty (or on ``port``, any pyserial URL), its
    loop on a thread (on a virtual clock, moved only by the link's ``advance``, with
    ``virtual_clock``)."""

    def __init__(self, test_mode: bool = True, virtual_clock: bool = False,
                 setup: Any = None, port: str | None = None, durable: bool = False,
                 timing: dict[str, float] | None = None) -> None:  # fmt: skip
        # lazy: the plugin loads in every pytest session: the unit only when asked
        from firmware.link.cable import PtyPair
        from firmware.link.server import LinkServer
        from firmware.link.target import hil_config
        from firmware.settings import load_unit_config
        from firmware.unit import Unit
        from hal.clock import MonotonicClock, VirtualClock
        from hal.testing import mock_pi_hal

        self._tmp = tempfile.TemporaryDirectory(prefix="switch16-hil-")
        root = Path(self._tmp.name)
        settings = load_unit_config(hil_config(root, test_mode, timing))
        clock = VirtualClock() if virtual_clock else MonotonicClock()
        self._mock = mock_pi_hal(settings.hardware, clock=clock)  # type: ignore[arg-type]
        self.pi = self._mock.__enter__()
        self.unit = Unit.from_settings(self.pi.hal, settings.game, state_dir=root / "state",
                                       seed=1, durable=durable, setup=setup)  # fmt: skip
        self.pair = PtyPair() if port is None else None
        #: where a client reaches the unit (with ``port``: that URL, the unit's own)
        self.url = self.pair.ends[1] if self.pair is not None else str(port)
        served = self.pair.ends[0] if self.pair is not None else str(port)
        self.server = LinkServer(self.unit, served, test_mode=test_mode,
                                 config_source=settings.source)  # fmt: skip
        self.server.open()
        self.thread = threading.Thread(target=self.unit.run, name="unit-loop", daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.unit.stop()
        self.thread.join(5)
        self.server.close()
        self.unit.close(close_hal=False)
        self._mock.__exit__(None, None, None)
        if self.pair is not None:
            self.pair.close()
        self._tmp.cleanup()

    def __enter__(self) -> InProcessUnit:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@pytest.fixture
def hil_client(request: pytest.FixtureRequest, hil_target: Any) -> Iterator[Any]:
    """A :class:`~firmware.link.client.LinkClient` to the unit under test: ``--hil-port``,
    a labgrid target's serial resource, or an in-process unit."""
    # lazy: the plugin loads in every pytest session: the rig only when asked
    from firmware.link.client import LinkClient

    url = request.config.getoption("--hil-port")
    if hil_target is not None:
        # lazy: labgrid, the lab extra
        from firmware.link.lab import NoSerialPort, target_url

        try:
            url = target_url(hil_target)
        except NoSerialPort as exc:
            pytest.skip(str(exc))
    unit = None if url else InProcessUnit()
    client = LinkClient(url or unit.url, timeout=10.0)  # type: ignore[union-attr]
    try:
        yield client
    finally:
        client.close()
        if unit is not None:
            unit.close()
