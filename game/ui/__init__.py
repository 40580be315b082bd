"""The pygame-ce front end. Nothing here changes a battle except through the resolver."""
