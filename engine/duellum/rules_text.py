"""The ``help duellum`` text: a rules summary and the chat notation with examples.

Why hand-written prose: it is read by players in chat, so it is short, ordered like a turn, and
every example is a command the parser accepts.
"""

from __future__ import annotations

HELP = """\
**Antike Duellum** — 2 nations race to 9 personalities.

**Turn**: 1) move your stone on the rondel and do that action; 2) found cities; 3) personalities.
Rondel (clockwise): FERRUM, TEMPLUM, AURUM, DUELLUM-a, MILITIA, MARMOR, SCIENTIA, DUELLUM-b.
First placement is free; later 1-3 steps are free, each further step costs 1 resource or coin
(your choice); you may not stay; a full circle costs 5.
- MARMOR/FERRUM/AURUM: 1 per own city of that resource (3 with a temple), +1 with MONETA, +1 coin.
- TEMPLUM: temples (6 marble + 1 coin per temple next door) and walls (1 marble, from your supply).
- MILITIA: 2 iron per unit from your recruitment box (units there at turn start) into own cities:
  1 new unit per city (3 with a temple); legions not into sea cities, galleys not into land cities.
- SCIENTIA: technologies (first buyer pays more and gets a Scholar) and recruiting
  (1 gold per legion, 2 per galley, personal supply → box).
- DUELLUM: move units 1 border (2 with STRATA/NAVIGATIO; legions cross red, galleys blue borders);
  entering enemy units of the same type: both lose 1:1. Then conquer enemy cities where your units
  ≥ defence (1, 3 with temple, +1 per defender, +1 wall, +1 RES PUBLICA): you lose that many units.
Founding: a unit in a free city site, 1 marble + 1 iron + 1 gold + 1 coin per neighbouring city of
the chosen resource. Coins replace any resource; surcharges must be paid in coins.
Personalities: King per 5 cities, Scholar per first technology, General per destroyed temple,
Navigator per 7 sea points (cityless sea 2, island sea 1), Citizen per 3 temples. Each one you
gain gives your opponent an event card; losing cities in a turn gives you one.

**Notation** (case, spacing and unique word starts are lenient; carthago nova = carthago_nova):
`rondel templum` · `rondel scientia pay iron` · `rondel militia pay 2 gold` · `take iron`
`temple roma` · `wall roma` · `deploy legion roma` · `deploy 2 galleys carthago`
`buy strata` · `recruit 2 legions` · `recruit galley`
`move 2 legions roma-ancona` · `move galley aigaion-lemnos-ainos` (only enemy-held stops are named)
`done` (movement → conquests) · `conquer ancona` · `conquer ancona with veterans` · `lose 2 legions 1 galley`
`found ancona gold` · `trade marble marble iron for gold gold`
`play fortress` · `pass` · `play earthquake roma` · `play merchant_caravan marble iron` · `take earthquake`
`done` finishes a step · `end` finishes the turn.
Options: map = rome-carthage (A) | greece-persia (B); special_units;
fortress_policy = ASK | AUTO_FIRST_CONQUEST | NEVER.
"""
