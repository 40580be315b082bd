"""Playing a battle: who decides for each side (a person, or the AI at some level), and the one
turn loop that the window, `fivefoot simulate` and `fivefoot ladder` share. No pygame here."""
