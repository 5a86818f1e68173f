"""`python -m aquarelle`."""

from aquarelle.cli.main import main

raise SystemExit(main())
