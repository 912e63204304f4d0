"""The app's plumbing: keys in arrival order, key names, ledger calls off the event loop, drafts, routing."""
