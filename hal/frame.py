"""The OLED panels' frame format: the size of every seat's panel, which each display
controller has and the screens draw for, and 1-bit frames packed into the controllers'
page order. Pure and dependency-free: the one HAL module the screens may import.
"""

from __future__ import annotations

from PIL import Image

#: Every seat's panel, in pixels: (width, height).
PANEL_SIZE = (128, 64)
#: Rows of pixels in one page of controller RAM (one byte of a column).
PAGE_HEIGHT = 8
#: bit-reverse table: Pillow packs mode "1" MSB-first, the controllers want row 0 in bit 0.
REVERSE_BITS = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))
_T = Image.Transpose
#: Transposes that turn a logical frame into panel columns as rows, per luma rotation.
_COLUMN_OPS: dict[int, tuple[Image.Transpose, ...]] = {
    0: (_T.TRANSPOSE,),
    1: (_T.ROTATE_270, _T.TRANSPOSE),
    2: (_T.TRANSVERSE,),
    3: (_T.ROTATE_90, _T.TRANSPOSE),
}


def pack_frame(image: Image.Image, rotate: int = 0) -> bytes:
    """Pack a 1-bit logical frame into controller RAM order.

    Returns ``pages * width`` bytes, page-major: byte ``page * width + x`` holds panel
    column ``x`` of rows ``8 * page`` (bit 0) to ``8 * page + 7`` (bit 7). ``rotate``
    is luma's quarter-turn clockwise rotation of the logical frame onto the panel.
    """
    img = image if image.mode == "1" else image.convert("1")
    for op in _COLUMN_OPS[rotate]:
        img = img.transpose(op)
    pages = img.width // PAGE_HEIGHT
    columns = img.tobytes().translate(REVERSE_BITS)  # column-major: x * pages + page
    return b"".join(columns[page::pages] for page in range(pages))
