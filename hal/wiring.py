"""Wiring documentation generated from the configuration.

``python3 -m hal.wiring --write`` regenerates ``hardware/WIRING.md`` (tables) and
``hardware/WIRING.svg`` (the diagram, :mod:`hal.wiring_svg`) from ``hardware/unit.toml``;
``--check`` fails if a committed file is out of date. Without either it prints the
Markdown, or with ``--svg`` the diagram.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from hal.config import REFERENCE_CONFIG, ConfigError, UnitConfig, load_config
from hal.controllers import CONTROLLERS
from hal.header import HEADER_PIN
from hal.wiring_svg import render_svg
from hardware.seats import seat_name, seat_number

WIRING_MD = REFERENCE_CONFIG.parent / "WIRING.md"
WIRING_SVG = REFERENCE_CONFIG.parent / "WIRING.svg"


def pin_rows(config: UnitConfig) -> list[tuple[str, str, int, int]]:
    """(function, key, GPIO, header pin) for every GPIO the unit uses, by GPIO."""
    rows: dict[int, tuple[str, str, int, int]] = {}
    for key, gpio, role in config.pin_uses():
        if gpio in rows:  # shared SPI DC/RST
            continue
        rows[gpio] = (role, key, gpio, HEADER_PIN[gpio])
    if any(s.display.bus == "i2c" for s in config.seats):
        rows[2] = ("I²C SDA (displays)", "-", 2, 3)
        rows[3] = ("I²C SCL (displays)", "-", 3, 5)
    return [rows[g] for g in sorted(rows)]


def format_pin_table(config: UnitConfig) -> str:
    """A plain-text pin table (``switch16 check-config``)."""
    lines = [f"{'GPIO':>4}  {'pin':>3}  {'function':<22} key"]
    for role, key, gpio, header in pin_rows(config):
        lines.append(f"{gpio:>4}  {header:>3}  {role:<22} {key}")
    lines.append("")
    for seat in config.seats:
        display = seat.display
        lines.append(f"{seat_name(seat.index)}: {display.describe()}, rotate {display.rotate}")
    return "\n".join(lines)


#: Header pins of the supplies (3.3 V: 1, 17; 5 V: 2, 4; GND: 6, 9, 14, 20, 25, 30, 34, 39).
POWER_3V3 = "3.3 V (pin 1 or 17)"
GROUND = "GND (pin 6, 9, 14, 20, 25, 30, 34 or 39)"


def power_rows(config: UnitConfig) -> list[tuple[str, str, str, str]]:
    """(part, its pin, goes to, note) for every supply, ground and bus wire of the unit:
    the connections a pin table of GPIOs leaves out."""
    rows: list[tuple[str, str, str, str]] = []
    muxes = sorted({s.display.mux for s in config.seats if s.display.mux is not None})
    for mux in muxes:
        name = f"PCA9548 mux 0x{mux:02X}"
        a = mux - 0x70
        rows += [
            (name, "VIN", POWER_3V3, "3.3 V only: it pulls SDA/SCL up to its supply"),
            (name, "GND", GROUND, ""),
            (name, "SDA / SCL", "GPIO 2 (pin 3) / GPIO 3 (pin 5)", "the Pi's I²C bus 1"),
            (name, "A0 / A1 / A2",
             " / ".join("3.3 V" if a >> bit & 1 else "GND" for bit in range(3)),
             f"sets its address 0x{mux:02X}"),
            (name, "RESET", "3.3 V", "or leave open if the board pulls it up"),
        ]  # fmt: skip
    for seat in config.seats:
        d, part = seat.display, f"{seat_name(seat.index)} OLED ({seat.display.driver})"
        rows += [
            (part, "VCC", POWER_3V3, "3.3 V keeps every I²C line at 3.3 V"),
            (part, "GND", GROUND, ""),
        ]
        if d.bus == "i2c" and d.mux is not None:
            rows.append((part, "SDA / SCL", f"mux 0x{d.mux:02X} SD{d.channel} / SC{d.channel}",
                         f"channel {d.channel}"))  # fmt: skip
        elif d.bus == "i2c":
            rows.append((part, "SDA / SCL", "GPIO 2 (pin 3) / GPIO 3 (pin 5)", ""))
        else:
            rows.append((part, "DIN / CLK / CS", f"SPI{d.port} MOSI / SCLK / CE{d.device}", ""))
        for button, pin in seat.buttons.items():
            rows.append((f"{seat_name(seat.index)} {button} button", "the two legs",
                         f"GPIO {pin} (pin {HEADER_PIN[pin]}) and GND", "no resistor: "
                         "internal pull-up"))  # fmt: skip
        if seat.led is not None:
            rows.append((f"{seat_name(seat.index)} LED", "anode via 330 Ω / cathode",
                         f"GPIO {seat.led} (pin {HEADER_PIN[seat.led]}) / GND", ""))  # fmt: skip
    sh = config.shaker
    rows += [
        ("shaker (SW-420 module)", "VCC", POWER_3V3,
         "**never 5 V**: the module then drives 5 V into a 3.3 V GPIO and damages the Pi"),
        ("shaker (SW-420 module)", "GND", GROUND, ""),
        ("shaker (SW-420 module)", "DO", f"GPIO {sh.pin} (pin {HEADER_PIN[sh.pin]})", ""),
    ]  # fmt: skip
    if config.buzzer is not None:
        b = config.buzzer
        rows += [
            ("buzzer (passive piezo)", "+", f"GPIO {b.pin} (pin {HEADER_PIN[b.pin]})",
             "passive only: an active buzzer just beeps"),
            ("buzzer (passive piezo)", "−", GROUND, ""),
        ]  # fmt: skip
    return rows


def render_wiring(config: UnitConfig, source_name: str = "hardware/unit.toml") -> str:
    """WIRING.md for a configuration."""
    sh = config.shaker
    out = [
        "# Wiring",
        "",
        f"<!-- Generated from {source_name} by `python3 -m hal.wiring --write`. "
        "Do not edit by hand. -->",
        "",
        f'**{config.name}**: {len(config.seats)} seats. GPIO numbers are BCM; "pin" is '
        "the physical pin on the 40-pin header. Buttons switch to GND (internal pull-ups). "
        "Seats are numbered from 1, as on the screens, in the order of their `[[seats]]` "
        "tables.",
        "",
        "## Seats",
        "",
        "| seat | yes (roll) | no (pass) | chip (select) | LED | display |",
        "|---|---|---|---|---|---|",
    ]
    for seat in config.seats:
        cells = [
            f"GPIO {seat.buttons[b]} (pin {HEADER_PIN[seat.buttons[b]]})" for b in seat.buttons
        ]
        led = f"GPIO {seat.led} (pin {HEADER_PIN[seat.led]})" if seat.led is not None else "-"
        out.append(
            f"| {seat_number(seat.index)} | {' | '.join(cells)} | {led} | "
            f"{seat.display.describe()}, rotate {seat.display.rotate} |"
        )
    out += [
        "",
        "## Buttons",
        "",
        "- A 4-leg tactile button: its legs are joined in pairs inside, so wire two "
        "**diagonally opposite** legs (one to the GPIO, one to GND); they connect only "
        "while the button is pressed. Two legs side by side may be joined for good: "
        "with a meter, the two you use read open until pressed.",
        "",
        "## Displays",
        "",
        "- Controllers: a seat's `display.driver` names its panel's, any of "
        + ", ".join(f"`{c.name}` ({c.panel})" for c in CONTROLLERS.values())
        + "; each on I²C (address 0x3C or 0x3D) or SPI.",
    ]
    if any(s.display.bus == "i2c" for s in config.seats):
        out.append(
            "- I²C: SDA GPIO 2 (pin 3), SCL GPIO 3 (pin 5), 3.3 V and GND to every "
            "panel (through the multiplexer when ports differ)."
        )
        out.append(
            "- Pull-ups: the Pi pulls SDA/SCL up to 3.3 V itself (1.8 kΩ on GPIO 2/3); a mux "
            "breakout usually adds its own on that side. Behind the mux every channel "
            "(SDn/SCn) is a bus of its own whose pull-ups come from the module on it: the "
            "common OLED modules carry 4.7–10 kΩ to their VCC, which is why VCC must be "
            "3.3 V. A module without them needs 4.7 kΩ from SDA and from SCL to 3.3 V."
        )
        out.append(
            "- Wire length at 400 kHz: a rising edge may take 300 ns (≈ 0.85 × pull-up × "
            "capacitance), so with a module's 4.7 kΩ a channel carries about 75 pF: the "
            "module and the mux take 20–30 pF, hook-up wire 50–100 pF a metre. Keep each "
            "panel within 30 cm of the mux and the mux within 10 cm of the Pi. Longer (or "
            "`switch16 selftest` fails a display now and then): set "
            "`i2c_arm_baudrate=100000` (1000 ns: several times the length; a full frame "
            "then takes ~90 ms instead of ~23) or add 2.2 kΩ pull-ups on that channel."
        )
    if any(s.display.bus == "spi" for s in config.seats):
        out.append(
            "- SPI: MOSI/SCLK of the SPI port to every panel, one chip-select each; "
            "DC and RST shared (reset once at start)."
        )
    out += [
        "",
        "## Shaker",
        "",
        f"- {sh.driver} sensor output on GPIO {sh.pin} (pin {HEADER_PIN[sh.pin]}), "
        f"{'internal pull-up' if sh.pull_up else 'internal pull-down'}.",
        f"- Shaking starts at {sh.start_edges} edges within {sh.start_window_s * 1000:g} ms, "
        f"stops after {sh.stop_quiet_s * 1000:g} ms quiet, is capped at "
        f"{sh.max_roll_s * 1000:g} ms.",
        "",
        "## Buzzer",
        "",
    ]
    if config.buzzer is None:
        out.append("- none")
    else:
        b = config.buzzer
        out.append(
            f"- passive piezo on GPIO {b.pin} (pin {HEADER_PIN[b.pin]}) and GND, "
            f"tones {b.octaves} octave(s) around {b.mid_tone}"
            + (" (muted: `mute = true`)." if b.mute else ".")
        )
    out += [
        "",
        "## Every connection: supplies, ground, buses",
        "",
        "Everything runs on 3.3 V. The Pi's GPIOs are not 5 V tolerant: no part may be fed "
        "from the 5 V pins (2, 4).",
        "",
        "| part | its pin | goes to | note |",
        "|---|---|---|---|",
    ]
    out += [f"| {part} | {pin} | {to} | {note} |" for part, pin, to, note in power_rows(config)]
    out += ["", "## All pins", "", "| GPIO | pin | function | config key |", "|---|---|---|---|"]
    out += [f"| {g} | {h} | {role} | `{key}` |" for role, key, g, h in pin_rows(config)]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m hal.wiring", description=__doc__)
    parser.add_argument("--config", default=str(REFERENCE_CONFIG))
    parser.add_argument("--svg", action="store_true", help="the SVG diagram, not the Markdown")
    parser.add_argument("--output", help="one file to write or check (default: "
                        "hardware/WIRING.md and WIRING.svg; only the SVG with --svg)")  # fmt: skip
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="write the output file(s)")
    mode.add_argument("--check", action="store_true", help="fail if a file is stale")
    args = parser.parse_args(argv)
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 1
    md, svg = render_wiring(config), render_svg(config)
    if args.output:
        files = [(Path(args.output), svg if args.svg else md)]
    else:
        files = [(WIRING_SVG, svg)] if args.svg else [(WIRING_MD, md), (WIRING_SVG, svg)]
    if args.check:
        stale = [p for p, text in files if not p.is_file() or p.read_text("utf-8") != text]
        for path in stale:
            print(f"{path} is out of date: run python3 -m hal.wiring --write", file=sys.stderr)
        return 1 if stale else 0
    if args.write:
        for path, text in files:
            path.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(svg if args.svg else md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
