"""The one error the rules raise: a sentence a player can act on."""


class RuleError(ValueError):
    """A step, setting or seat that breaks a rule; the message is in the players' words."""
