"""The automatic player's card decisions: which card to play and how to answer card choices.

Why separate from :mod:`engine.clash.bot`: the map bot scores one action at a time; cards add a
handful of plays and many small choices (a city for a famine, Myths' protection, objective
claims), each answered by a short rule of thumb here.
"""

from __future__ import annotations

from engine.clash.actions import Action
from engine.clash.state import State

PLAY_SCORE = {
    "city_development": 86,
    "quick_advance": 79,
    "teach_us": 78,
    "technology_trade": 74,
    "leadership": 72,
    "ideas": 62,
    "new_ideas": 52,
    "mass_production": 47,
    "synergies": 46,
    "explorer": 42,
    "militia": 30,
    "new_plans": 26,
    "assassination": 9,
    "production_focus": 18,
    "spy": 12,
    "inspiration": 77,
    "great_ideas": 60,
    "hero_general": 50,
    "mercenaries": 20,
    "negotiations": 8,
    "cultural_takeover": 6,
}
"""Scores on the scale of :func:`engine.clash.bot.score` (founding a city is 100)."""
HARMFUL = {
    "plague",
    "epidemic",
    "famine",
    "volcano",
    "earthquake",
    "flood",
    "migration",
    "civil_war",
    "revolution",
    "uprising",
}


def takeover_score(state: State, seat: int, a: Action) -> float:
    """A takeover gains a city: worth an action unless culture tokens are saved for a wonder."""
    from engine.clash.bot_culture import saving_for_wonder

    return 5 if a.n and saving_for_wonder(state, seat) else 48


def play_score(a: Action, state: State | None = None, seat: int = 0) -> float:
    """How much the bot wants to play a card now. Culture tokens are saved for a wonder once
    the player works towards a wonder (a wonder costs 5 of them)."""
    if a.kind == "great":
        return 78
    if state is not None and a.name == "cultural_takeover":
        from engine.clash.takeover import FLAG, takeover_options

        state.decks["flags"][seat].append(FLAG)
        ready = any(not t.n for t in takeover_options(state, seat))
        state.decks["flags"][seat].remove(FLAG)
        return 47 if ready else 0
    if state is not None and a.kind == "play":
        from engine.clash.bot_culture import saving_for_wonder
        from engine.clash.cards_data import DECKS

        card = next(c for c in DECKS.actions.values() if c.effect == a.name)
        if card.culture and (saving_for_wonder(state, seat) or "engineering" in state.pl[seat].advances):
            return 5
    return PLAY_SCORE.get(a.name, 10)


def choose(state: State, seat: int, actions: list[Action]) -> Action:
    """Answer the open card choice."""
    from engine.clash.bot import ADVANCE_PRIORITY
    from engine.clash.cards_data import DECKS

    step = state.pending["step"]
    names = [a.name for a in actions]
    do = step["do"]

    def pick(name: str) -> Action:
        return actions[names.index(name)]

    if do == "mood" and "protect" in names:
        return pick("protect")
    if do == "claim":
        return _claim(state, seat, actions)
    if do == "optional":
        return pick("decline" if DECKS.events[str(step["card"])].effect in HARMFUL else "accept")
    if do in ("spy_swap", "plans_more"):
        return pick("none")
    if do == "revolution":
        return pick("accept")
    if do in ("adv_pick", "great_advance"):

        def rank(name: str) -> int:
            adv = name.replace("-", "_")
            return ADVANCE_PRIORITY.index(adv) if adv in ADVANCE_PRIORITY else 99

        return min(actions, key=lambda a: (rank(a.name), names.index(a.name)))
    if do in ("pick_city", "civil_war", "quake"):
        # Lose the least: the smallest city.
        def size(name: str) -> int:
            word = name.rsplit("-", 1)[0] if do == "quake" or name.endswith("-army") else name
            for c in state.cities:
                from engine.clash.notation import city_word

                if city_word(state, c.space) == word:
                    return c.size
            return 9

        return min(actions, key=lambda a: (size(a.name), names.index(a.name)))
    if do == "lose_unit":
        return min(actions, key=lambda a: ({"settler": 0, "army": 1}.get(a.name.split("-")[0], 2), names.index(a.name)))
    return actions[0]


def combat_card(state: State, seat: int, actions: list[Action]) -> Action:
    """In a battle's first round, play a combat ability when one is usable; else no card (the
    cards are worth keeping for their other effect)."""
    tactics = [a for a in actions if a.kind == "tactic"]
    if tactics and int(state.battle.get("round", 1)) == 1:
        return tactics[0]
    return next((a for a in actions if a.kind == "nocard"), actions[0])


def _claim(state: State, seat: int, actions: list[Action]) -> Action:
    """Declare objectives; those paid with resources wait while the player saves for a wonder."""
    from engine.clash.bot_culture import saving_for_wonder
    from engine.clash.cards_data import DECKS, slug

    paying = {
        slug(half.name)
        for card in DECKS.objectives.values()
        for half in (card.upper, card.lower)
        if half.check == "pay"
    }
    saving = saving_for_wonder(state, seat)
    for a in actions:
        if a.name != "none" and not (saving and a.name in paying):
            return a
    return next(a for a in actions if a.name == "none")
