"""Bones on Ice — the playtest log's vocabulary: header keys and event kinds with their typed
fields (documented in ``docs/playtest-logs.md``), and the effect kinds the rules know."""

from __future__ import annotations

from cardgen.core.options import Opt

# The log's vocabulary: header keys and event kinds with their typed fields.


def _rolls(order: str) -> Opt:
    dead_eye = " A Dead Eye roll is the list of its values, e.g. [[7, 11], 5]." if "Marksmanship" in order else ""
    return Opt("list", item=Opt("any"), doc=f"the two die values: {order} (BOI-ROLL-1).{dead_eye} May be left "
               "out when the outcome is stated")


_BOOSTS = Opt("list", item=Opt("str"), doc="the teams (or their skaters) that Boost this roll, each paying "
              "its Boost cost for the Boost bonus; at most one per team (BOI-STAM-2)")
_WINNER = Opt("str", doc="stated: the team (or skater) that wins the roll (checked)")
_STAMINA = Opt("map", item=Opt("int"), doc="stated: Stamina after the event, by team, e.g. {femurs: 18} (checked)")
_SCORE = Opt("map", item=Opt("int"), doc="stated: the score after the event, by team, e.g. {femurs: 1, titans: 0} "
             "(checked)")


def _skater(doc: str, required: bool = True) -> Opt:
    return Opt("str", required=required, doc=doc + " (card id, name, or id without the team prefix)")


EVENTS: dict[str, dict[str, Opt]] = {
    "round_start": {
        "round": Opt("int", doc="stated: the number of the round that starts (checked, BOI-ROUND-1)"),
    },
    "chaos": {
        "die": Opt("int", required=True, doc="the value of the Chaos die (BOI-CHAOS-1)"),
        "entry": Opt("str", doc="stated: the Chaos Table entry (card id or name) the value gives (checked)"),
        "stamina": _STAMINA,
    },
    "penalty_shot": {"skater": _skater("the shooter: the trailing team's Attacker"),
                     "rolls": _rolls("[shooter's Marksmanship, Goalie's Reflexes]"), "boosts": _BOOSTS,
                     "goal": Opt("bool", doc="stated: the penalty shot scores (checked)"), "score": _SCORE,
                     "stamina": _STAMINA},
    "faceoff": {
        "skaters": Opt("list", required=True, item=Opt("str"),
                       doc="one skater of each team, not the Goalie (BOI-FO-1); the rolls follow this order"),
        "rolls": _rolls("the two skaters' Reflexes, in the order of 'skaters'; a tie is re-rolled in a new "
                        "'faceoff' event"),
        "boosts": _BOOSTS, "winner": _WINNER, "stamina": _STAMINA,
    },
    "scramble": {
        "rolls": Opt("map", required=True, doc="Bone Shuffle: the die value of each skater except the Goalies, "
                     "by skater, e.g. {sully: 5, frank: 2, …}"),
    },
    "move": {
        "skater": _skater("the puck carrier"),
        "zone": Opt("str", required=True, doc="the zone moved into, named from the mover's team "
                    "(defensive, neutral, attack)"),
        "defender": _skater("the opposing skater who defends (the opponent picks, BOI-MID-6)"),
        "rolls": _rolls("[carrier's Reflexes, defender's Reflexes]"),
        "boosts": _BOOSTS, "winner": _WINNER, "stamina": _STAMINA,
    },
    "shoot": {"skater": _skater("the puck carrier who shoots"),
              "defender": _skater("the opposing skater who tries to block (the opponent picks, BOI-MID-6)"),
              "rolls": _rolls("[shooter's Marksmanship, defender's Reflexes]"), "boosts": _BOOSTS,
              "winner": _WINNER, "stamina": _STAMINA},
    "pass": {"skater": _skater("the puck carrier who passes"),
             "to": _skater("the teammate who receives the pass"), "stamina": _STAMINA},
    "intercept": {"skater": _skater("the opposing skater who tries to intercept the pass just made"),
                  "rolls": _rolls("[passer's Reflexes, interceptor's Reflexes]"), "boosts": _BOOSTS,
                  "winner": _WINNER, "stamina": _STAMINA},
    "tactical_move": {
        "skater": _skater("a skater of the active team without the puck"),
        "zone": Opt("str", required=True, doc="the zone moved into, named from the skater's team"),
        "stamina": _STAMINA,
    },
    "one_v_one": {
        "skater": _skater("stated: the shooter (checked: the skater whose shot got through)", required=False),
        "rolls": _rolls("[shooter's Marksmanship, Goalie's Reflexes]"), "boosts": _BOOSTS,
        "goal": Opt("bool", doc="stated: the shot scores (checked, BOI-1V1-1)"),
        "score": _SCORE, "stamina": _STAMINA,
    },
    "rebound": {"rolls": _rolls("[shooter's Reflexes, Goalie's Reflexes]"), "boosts": _BOOSTS,
                "winner": _WINNER, "stamina": _STAMINA},
    "team_spirit": {
        "team": Opt("str", required=True, doc="the team that uses its Team Spirit"),
        "skater": _skater("the skater the Team Spirit names: Bone Rush's skater that acts again, "
                          "Cold Snap's opposing skater, Dead Eye's shooter", required=False),
        "stamina": _STAMINA,
    },
    "recovery": {"stamina": _STAMINA, "score": _SCORE},
    "shootout": {"skater": _skater("the shooter, not the Goalie (BOI-END-3)"),
                 "rolls": _rolls("[shooter's Marksmanship, opposing Goalie's Reflexes]"), "boosts": _BOOSTS,
                 "goal": Opt("bool", doc="stated: the shot scores (checked)"),
                 "score": Opt("map", item=Opt("int"), doc="stated: shootout goals so far, by team (checked)"),
                 "stamina": _STAMINA},
}

_TEAM = Opt("map", doc="a team: its id or name from the cards, and optionally its skaters", fields={
    "team": Opt("str", required=True, doc="the team: its key (e.g. femurs) or its name (Frostbite Femurs)"),
    "skaters": Opt("list", item=Opt("str"), doc="the line-up (default: the team's four skater cards)"),
    "stamina": Opt("int", doc="stated: the starting Stamina (checked, BOI-STAM-1)"),
})

HEADER: dict[str, Opt] = {
    "teams": Opt("list", required=True, item=_TEAM, doc="the two teams (BOI-SETUP-1); the first one's goal is "
                 "at the left end of the rink in the trace"),
}

#: the rule each claim of ``expect`` breaks when it differs from the replay's final state
EXPECT_RULES = {"winner": "BOI-END-1", "decided_by": "BOI-END-2", "score": "BOI-1V1-1",
                "shootout": "BOI-END-2", "stamina": "BOI-STAM-1", "round": "BOI-ROUND-1",
                "teams": "BOI-END-1"}

# The effects the engine knows, with the keys each needs in params.yaml (chaos_effects, spirit_effects).
CHAOS_EFFECTS = {"penalty_shot": ("who", "level", "shooter"), "scramble": ("die", "zones"),
                 "recover": ("who", "level", "amount"), "win_faceoff": ("who", "level"), "no_boost": (),
                 "roll_bonus": ("who", "level", "amount")}
SPIRIT_EFFECTS = {"extra_action": ("actions",), "opponent_die": ("die",), "best_of": ("dice", "stat"),
                  "defense_everywhere": ()}

