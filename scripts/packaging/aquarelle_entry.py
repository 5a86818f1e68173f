"""Entry point of the bundled app (PyInstaller): the same as the installed `aquarelle` command.

No arguments (or one file) opens the desktop app; `render`, `doctor`, ... are the CLI.
"""

from aquarelle.cli.main import main

if __name__ == "__main__":
    raise SystemExit(main())
