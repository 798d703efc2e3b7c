"""``hardware/WIRING.svg``: the wiring diagram, drawn from the same config as WIRING.md.

The Pi's 40-pin header stands in the middle, every pin named. A part on a GPIO sits
level with its pin (odd pins on the left, even on the right) on a straight wire; its
ground and supply go to the 3.3 V and GND rails at the edges, which are fed from the
header. The displays and the PCA9548 multiplexer sit above, each panel wired to its
mux channel. Plain SVG text, no dependencies: ``python3 -m hal.wiring --write``.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from hal.config import SPI_PINS, DisplayConfig, UnitConfig, seat_key
from hal.header import HEADER_PIN
from hardware.seats import seat_name

WIDTH = 1400
#: Supply and ground pins of the header (physical numbers).
POWER_PINS = {1: "3V3", 17: "3V3", 2: "5V", 4: "5V"} | {
    p: "GND" for p in (6, 9, 14, 20, 25, 30, 34, 39)
}
#: The pins that feed the rails: 3.3 V from pin 17, GND from 39 (left) and 34 (right).
FEED_3V3, FEED_GND_LEFT, FEED_GND_RIGHT = 17, 39, 34
COLOURS = {"3v3": "#d62728", "gnd": "#222222", "sda": "#1f6fd1", "scl": "#e08a00",
           "gpio": "#2a9d4a", "spi": "#8e44ad"}  # fmt: skip
BUTTON_NAMES = {"yes": "YES (roll)", "no": "NO (pass)", "chip": "CHIP"}

# Geometry: the header, the rails, the part columns, the displays band.
HEADER_X, HEADER_TOP, ROW = 660, 400, 26
ODD_X, EVEN_X = HEADER_X + 20, HEADER_X + 80
LEFT_3V3, LEFT_GND, RIGHT_GND, RIGHT_3V3 = 200, 232, 1168, 1200
LEFT_BOX, RIGHT_BOX, BOX_W, BOX_H = 300, 900, 200, 20
OLED_Y, OLED_W, OLED_H = 66, 170, 74
RAIL_GND_Y, RAIL_3V3_Y = 168, 186
MUX_Y, MUX_H = 216, 112


def pin_y(pin: int) -> int:
    """The y of a header pin's row."""
    return HEADER_TOP + (pin - 1) // 2 * ROW


def pin_x(pin: int) -> int:
    return ODD_X if pin % 2 else EVEN_X


def pin_name(pin: int) -> str:
    """``GPIO 17``, ``3V3``, ``5V`` or ``GND``."""
    gpio = {h: g for g, h in HEADER_PIN.items()}
    return POWER_PINS.get(pin) or f"GPIO {gpio[pin]}"


@dataclass
class _Svg:
    parts: list[str]

    def line(self, points: list[tuple[int, int]], colour: str, width: float = 2.0) -> None:
        path = " ".join(f"{x},{y}" for x, y in points)
        self.parts.append(f'<polyline points="{path}" fill="none" stroke="{COLOURS[colour]}" '
                          f'stroke-width="{width:g}"/>')  # fmt: skip

    def dot(self, x: int, y: int, colour: str) -> None:
        self.parts.append(f'<circle cx="{x}" cy="{y}" r="3.5" fill="{COLOURS[colour]}"/>')

    def text(self, x: int, y: int, s: str, size: int = 12, anchor: str = "start",
             cls: str = "") -> None:  # fmt: skip
        c = f' class="{cls}"' if cls else ""
        self.parts.append(f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}"{c}>'
                          f"{escape(s)}</text>")  # fmt: skip

    def box(self, x: int, y: int, w: int, h: int, fill: str, title: str) -> None:
        self.parts.append(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="4" '
                          f'fill="{fill}" stroke="#444"><title>{escape(title)}</title></rect>'
                          )  # fmt: skip


@dataclass(frozen=True)
class _GpioPart:
    """A part on one GPIO: its box text, config key, and its return wires."""

    gpio: int
    label: str
    key: str
    to_gnd: str | None = "GND"  #: the label of its ground leg, None: no ground wire
    to_3v3: str | None = None  #: the label of its supply leg
    via: str = ""  #: what sits on the GPIO wire (a resistor)


def _gpio_parts(config: UnitConfig) -> list[_GpioPart]:
    parts: list[_GpioPart] = []
    for seat in config.seats:
        for button, pin in seat.buttons.items():
            parts.append(_GpioPart(pin, f"{seat_name(seat.index)} "
                                   f"{BUTTON_NAMES.get(button, button)} button",
                                   seat_key(seat.index, f"buttons.{button}")))  # fmt: skip
        if seat.led is not None:
            parts.append(_GpioPart(seat.led, f"{seat_name(seat.index)} LED (− to GND)",
                                   seat_key(seat.index, "led"), via="330 Ω"))  # fmt: skip
    shared: dict[tuple[str, int], list[str]] = {}  # the SPI panels' DC and RST lines
    for seat in config.seats:
        d = seat.display
        for what, line in (("DC", d.dc), ("RST", d.rst)):
            if line is not None:
                shared.setdefault((what, line), []).append(
                    seat_key(seat.index, f"display.{what.lower()}"))  # fmt: skip
    for (what, pin), keys in shared.items():
        parts.append(_GpioPart(pin, f"displays' {what}" + (" (shared)" if len(keys) > 1 else ""),
                               ", ".join(keys), to_gnd=None))  # fmt: skip
    sh = config.shaker
    parts.append(_GpioPart(sh.pin, "shaker SW-420: DO", "shaker.pin", to_3v3="VCC"))
    if config.buzzer is not None:
        parts.append(_GpioPart(config.buzzer.pin, "passive buzzer: +", "buzzer.pin",
                               to_gnd="−"))  # fmt: skip
    return parts


def _display_note(d: DisplayConfig) -> str:
    if d.bus == "spi":
        rst = f", RST GPIO {d.rst}" if d.rst is not None else ""
        return f"SPI{d.port}: DIN MOSI, CLK SCLK, CS CE{d.device}, DC GPIO {d.dc}{rst}"
    return f"SDA/SCL to GPIO 2/3 (/dev/i2c-{d.port})"


def render_svg(config: UnitConfig, source_name: str = "hardware/unit.toml") -> str:
    """The wiring diagram of a configuration, as SVG text."""
    svg = _Svg([])
    parts = _gpio_parts(config)
    muxes = sorted({s.display.mux for s in config.seats if s.display.mux is not None})
    height = pin_y(39) + 150
    svg.text(WIDTH // 2, 30, f"Switch 16 wiring: {config.name}", 18, "middle", "b")
    svg.text(WIDTH // 2, 50, f"generated from {source_name} by python3 -m hal.wiring --write; "
             "GPIO numbers are BCM, pin numbers physical", 12, "middle", "dim")  # fmt: skip

    # The displays band: one panel per seat, the mux below them, the top rails between.
    n = len(config.seats)
    pitch = (RIGHT_BOX + BOX_W - LEFT_BOX) // n
    oled_x = [LEFT_BOX + i * pitch + (pitch - OLED_W) // 2 for i in range(n)]
    right_3v3 = any(p.to_3v3 and HEADER_PIN[p.gpio] % 2 == 0 for p in parts)
    rail_end = RIGHT_3V3 if right_3v3 else oled_x[-1] + 60
    svg.line([(LEFT_GND, RAIL_GND_Y), (RIGHT_GND, RAIL_GND_Y)], "gnd", 3)
    svg.line([(LEFT_3V3, RAIL_3V3_Y), (rail_end, RAIL_3V3_Y)], "3v3", 3)
    mux_x0, mux_x1 = LEFT_BOX, RIGHT_BOX + BOX_W
    for i, seat in enumerate(config.seats):
        d, x = seat.display, oled_x[i]
        key = seat_key(seat.index, "display")
        svg.box(x, OLED_Y, OLED_W, OLED_H, "#e8f0ff", key)
        svg.text(x + OLED_W // 2, OLED_Y + 18, f"{seat_name(seat.index)} OLED", 14, "middle", "b")
        where = f"0x{d.address:02X}" if d.bus == "i2c" and d.address is not None else d.bus.upper()
        svg.text(x + OLED_W // 2, OLED_Y + 34, f"{d.driver} {where}", 11, "middle")
        legs = ["GND", "VCC", "SCL", "SDA"] if d.bus == "i2c" else ["GND", "VCC"]
        for j, leg in enumerate(legs):
            lx = x + 25 + j * 40
            svg.text(lx, OLED_Y + OLED_H - 6, leg, 10, "middle")
            if leg == "GND":
                svg.line([(lx, OLED_Y + OLED_H), (lx, RAIL_GND_Y)], "gnd")
                svg.dot(lx, RAIL_GND_Y, "gnd")
            elif leg == "VCC":
                svg.line([(lx, OLED_Y + OLED_H), (lx, RAIL_3V3_Y)], "3v3")
                svg.dot(lx, RAIL_3V3_Y, "3v3")
            elif d.mux is not None:
                top = MUX_Y + muxes.index(d.mux) * (MUX_H + 16)
                svg.line([(lx, OLED_Y + OLED_H), (lx, top)], leg.lower())
                svg.text(lx, top + 14, f"{leg[:2]}{d.channel}", 10, "middle")
        if d.mux is not None:
            svg.text(x + OLED_W // 2, OLED_Y + 48, f"mux 0x{d.mux:02X} channel {d.channel}",
                     11, "middle")  # fmt: skip
        else:
            svg.text(x + OLED_W // 2, OLED_Y + 48, _display_note(d), 9, "middle")
    for m, mux in enumerate(muxes):
        top = MUX_Y + m * (MUX_H + 16)
        svg.box(mux_x0, top, mux_x1 - mux_x0, MUX_H, "#fff4e0", f"PCA9548 mux 0x{mux:02X}")
        svg.text((mux_x0 + mux_x1) // 2, top + 50, f"PCA9548A I²C multiplexer 0x{mux:02X}",
                 15, "middle", "b")  # fmt: skip
        svg.text((mux_x0 + mux_x1) // 2, top + 68, "each panel on its own channel (SDn/SCn); "
                 "the kernel makes every channel a /dev/i2c-N", 11, "middle")  # fmt: skip
        address = mux - 0x70
        supplies = [("VIN", "3v3"), ("GND", "gnd")]
        supplies += [(f"A{b}", "3v3" if address >> b & 1 else "gnd") for b in range(3)]
        supplies.append(("RESET", "3v3"))
        for j, (leg, net) in enumerate(supplies):
            y = top + 12 + j * 17
            svg.text(mux_x0 + 6, y + 4, leg, 10)
            rail = LEFT_3V3 if net == "3v3" else LEFT_GND
            svg.line([(mux_x0, y), (rail, y)], net)
            svg.dot(rail, y, net)
        for j, (leg, pin) in enumerate((("SDA", 3), ("SCL", 5))):
            x = HEADER_X - 40 - j * 22 - m * 50
            svg.text(x, top + MUX_H - 6, leg, 10, "middle")
            svg.line([(x, top + MUX_H), (x, pin_y(pin)), (ODD_X, pin_y(pin))], leg.lower())

    # The header: 20 rows of two pins, every pin named.
    svg.box(HEADER_X, HEADER_TOP - 18, 100, 19 * ROW + 36, "#2d5a27", "the Pi's 40-pin header")
    svg.text(HEADER_X + 50, HEADER_TOP - 26, "Raspberry Pi 40-pin header", 13, "middle", "b")
    svg.text(HEADER_X + 50, pin_y(39) + 36, "(pin 1: the square pad)",
             11, "middle", "dim")  # fmt: skip
    for pin in range(1, 41):
        x, y = pin_x(pin), pin_y(pin)
        shape = (f'<rect x="{x - 6}" y="{y - 6}" width="12" height="12"' if pin == 1
                 else f'<circle cx="{x}" cy="{y}" r="6"')  # fmt: skip
        svg.parts.append(f'{shape} fill="#d9b44a" stroke="#222"/>')
        svg.text(x + (10 if pin % 2 else -10), y + 4, str(pin), 10,
                 "start" if pin % 2 else "end", "pin")  # fmt: skip

    def header_label(pin: int, used: bool) -> None:
        x = pin_x(pin) + (-30 if pin % 2 else 30)
        svg.text(x, pin_y(pin) - 4, pin_name(pin), 11, "end" if pin % 2 else "start",
                 "" if used else "dim")  # fmt: skip

    # Rails down the sides, fed from the header.
    used = {FEED_3V3, FEED_GND_LEFT, FEED_GND_RIGHT} | {HEADER_PIN[p.gpio] for p in parts}
    if muxes or any(s.display.bus == "i2c" and s.display.port == 1 for s in config.seats):
        used |= {3, 5}
    for seat in config.seats:
        d = seat.display
        if d.bus == "spi" and d.port is not None:
            wanted = {f"SPI{d.port} {n}" for n in ("MOSI", "SCLK", f"CE{d.device or 0}")}
            used |= {HEADER_PIN[g] for g, name in SPI_PINS[d.port].items() if name in wanted}
    junctions: dict[int, list[int]] = {LEFT_GND: [], RIGHT_GND: [], LEFT_3V3: [], RIGHT_3V3: []}
    for part in parts:
        pin = HEADER_PIN[part.gpio]
        left = pin % 2 == 1
        y, x = pin_y(pin), pin_x(pin)
        box_x = LEFT_BOX if left else RIGHT_BOX
        edge, outer = (box_x + BOX_W, box_x) if left else (box_x, box_x + BOX_W)
        svg.line([(x, y), (edge, y)], "gpio")
        if part.via:
            mid = edge + (40 if left else -40)
            svg.parts.append(f'<rect x="{mid - 14}" y="{y - 5}" width="28" height="10" '
                             'fill="#f5e6c8" stroke="#444"/>')  # fmt: skip
            svg.text(mid, y - 8, part.via, 10, "middle")
        svg.box(box_x, y - BOX_H // 2, BOX_W, BOX_H, "#ffffff", part.key)
        svg.text(box_x + BOX_W // 2, y + 4, part.label, 11, "middle")
        returns = [(part.to_gnd, "gnd", LEFT_GND if left else RIGHT_GND),
                   (part.to_3v3, "3v3", LEFT_3V3 if left else RIGHT_3V3)]  # fmt: skip
        returns = [leg for leg in returns if leg[0] is not None]
        for j, (label, net, rail) in enumerate(returns):
            # two legs: the first labelled above its wire, the second below, so no wire
            # crosses a label
            ly = y if len(returns) == 1 else y - 7 + 14 * j
            svg.line([(outer, ly), (rail, ly)], net)
            svg.dot(rail, ly, net)
            junctions[rail].append(ly)
            lx = outer + (-4 if left else 4)
            below = len(returns) > 1 and j == 1
            svg.text(lx, ly + 10 if below else ly - 3, label or "", 9,
                     "end" if left else "start", "dim")  # fmt: skip
    for pin in range(1, 41):
        header_label(pin, pin in used)
    feeds = [(FEED_3V3, LEFT_3V3, "3v3"), (FEED_GND_LEFT, LEFT_GND, "gnd"),
             (FEED_GND_RIGHT, RIGHT_GND, "gnd")]  # fmt: skip
    for pin, rail, net in feeds:
        svg.line([(pin_x(pin), pin_y(pin)), (rail, pin_y(pin))], net)
        svg.dot(rail, pin_y(pin), net)
        junctions[rail].append(pin_y(pin))
    for rail, net, top in ((LEFT_GND, "gnd", RAIL_GND_Y), (RIGHT_GND, "gnd", RAIL_GND_Y),
                           (LEFT_3V3, "3v3", RAIL_3V3_Y)):  # fmt: skip
        svg.line([(rail, top), (rail, max(junctions[rail], default=top))], net, 3)
    if right_3v3:
        svg.line([(RIGHT_3V3, RAIL_3V3_Y), (RIGHT_3V3, max(junctions[RIGHT_3V3]))], "3v3", 3)
        svg.text(RIGHT_3V3 + 6, RAIL_3V3_Y + 4, "3.3 V", 11, "start", "b")
    svg.text(LEFT_3V3 - 6, RAIL_3V3_Y + 4, "3.3 V", 11, "end", "b")
    svg.text(LEFT_GND, RAIL_GND_Y - 6, "GND", 11, "middle", "b")
    svg.text(RIGHT_GND, RAIL_GND_Y - 6, "GND", 11, "middle", "b")

    # Legend.
    y = height - 56
    items = [("3v3", "3.3 V (never 5 V: pins 2 and 4 stay free)"), ("gnd", "ground"),
             ("sda", "I²C SDA"), ("scl", "I²C SCL"), ("gpio", "GPIO signal")]  # fmt: skip
    x = 80
    for net, label in items:
        svg.line([(x, y), (x + 30, y)], net, 3)
        svg.text(x + 38, y + 4, label, 12)
        x += 60 + 7 * len(label)
    svg.text(80, y + 26, "A dot joins wires; wires that cross without a dot are not "
             "connected. Buttons switch to GND (internal pull-ups, no resistors). "
             "Hover a part for its unit.toml key.", 12, "start", "dim")  # fmt: skip

    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans, Arial, sans-serif">\n'
            f"<title>Switch 16 wiring: {escape(config.name)}</title>\n"
            "<style>.b{font-weight:bold}.dim{fill:#666}.pin{fill:#fff}</style>\n"
            f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>\n')  # fmt: skip
    return head + "\n".join(svg.parts) + "\n</svg>\n"
