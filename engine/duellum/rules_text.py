"""The ``help duellum`` text: a rules summary and the chat notation with examples.

Why hand-written prose: it is read by players in chat, so it is short, ordered like a turn, and
every example is a command the parser accepts (a test types each one). The technology prices
come from the data file, so the help never disagrees with what a purchase costs.
"""

from __future__ import annotations

from engine.duellum.data import TECH_ORDER, TECHS


def tech_table() -> str:
    """One line per technology: its prices (first buyer / later buyer) and what it does."""
    return "\n".join(
        f"- {TECHS[t].name}: {TECHS[t].first} gold first, {TECHS[t].second} gold after. {TECHS[t].effect}"
        for t in TECH_ORDER
    )


HELP = f"""\
**Antike Duellum** — two nations race to 9 personalities.

**Turn**: 1) move your stone on the rondel and do that action; 2) found cities; 3) personalities.
Rondel (clockwise): FERRUM, TEMPLUM, AURUM, DUELLUM-a, MILITIA, MARMOR, SCIENTIA, DUELLUM-b.
First placement is free; later 1-3 steps are free, each further step costs 1 resource or coin
(your choice); you may not stay; a full circle costs 5.
- MARMOR/FERRUM/AURUM: 1 per own city of that resource (3 with a temple), +1 with Moneta, +1 coin.
- TEMPLUM: temples (6 marble + 1 coin per temple next door) and walls (1 marble, from your supply).
- MILITIA: 2 iron per unit from your recruitment box (units there at turn start) into own cities:
  1 new unit per city (3 with a temple); legions not into sea cities, galleys not into land cities.
- SCIENTIA: technologies (the first buyer pays more and gets a Scholar) and recruiting
  (1 gold per legion, 2 per galley, personal supply → box).
- DUELLUM: move units 1 border (2 with Strata/Navigatio; legions cross red, galleys blue borders);
  entering enemy units of the same type: both lose 1:1. Then conquer enemy cities where your units
  ≥ defence (1, 3 with temple, +1 per defender, +1 wall, +1 Res Publica): you lose that many units.
Founding: a unit in a free city site, 1 marble + 1 iron + 1 gold + 1 coin per neighbouring city of
the chosen resource. Coins may replace any resource, your choice; surcharges must be paid in coins.
Personalities: King per 5 cities, Scholar per first technology, General per destroyed temple,
Navigator per 7 sea points (cityless sea 2, island sea 1), Citizen per 3 temples. Each one you
gain gives your opponent an event card; losing cities in a turn gives you one.

**Technologies** (gold; coins may replace gold):
{tech_table()}

**Notation** (names as on the board; case, spacing and unique word starts are lenient, and ids
such as carthago_nova work too):
`rondel templum` · `rondel scientia pay iron` · `rondel militia pay 2 gold` · `take iron`
`temple Roma` · `wall Roma` · `deploy legion Roma` · `deploy 2 galleys Carthago Nova`
`buy Strata` · `recruit 2 legions` · `recruit galley`
Costs are paid chips first; to pay with coins instead, name the payment:
`temple Roma pay 6 coins` · `buy Navigatio pay 2 gold 4 coins`
`move 2 legions Roma-Ancona` · `move galley Aigaion Pelagos-Lemnos-Ainos` (only enemy-held stops are named)
`done` (movement → conquests) · `conquer Ancona` · `conquer Ancona with Veterans` · `lose 2 legions 1 galley`
`found Ancona gold` · `trade marble marble iron for gold gold`
`play Fortress` · `pass` · `play Earthquake Roma` · `play Merchant Caravan marble iron` · `take Earthquake`
`done` finishes a step · `end` finishes the turn.
"""
