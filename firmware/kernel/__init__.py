"""What every game shares and none owns: typed error bases, who acts (seats, chance,
the end), the roll-off that picks who starts. Pure: no HAL, clock or I/O."""
