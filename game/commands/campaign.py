"""`fivefoot campaign [FILE]`: battles in a row, the survivors carrying their wounds forward, a
choice between battles, saved between battles (docs/campaign.md). In the window by default; with
--auto the AI plays every side and the choices are taken as --choose says (or the first)."""
from __future__ import annotations

from dataclasses import dataclass


def register(subparsers) -> None:
    p = subparsers.add_parser("campaign", help="play a campaign: battles in a row, survivors and wounds carried, saved between")
    p.add_argument("campaign", metavar="FILE", nargs="?", help="a campaign .toml (default: the bundled one)")
    p.add_argument("--save", metavar="SAVE.json", help="where the campaign is saved between battles "
                   "(default: campaign-save.json here)")
    p.add_argument("--resume", action="store_true", help="go on from the save instead of starting again")
    p.add_argument("--seed", type=int, default=1, help="seed for the battles' dice (default 1)")
    p.add_argument("--auto", action="store_true", help="no window: the AI plays every side to the end")
    p.add_argument("--choose", default="", metavar="ID,ID",
                   help="with --auto: the choice to take after each battle in turn (default: the first offered)")
    p.add_argument("--check", action="store_true", help="only validate the campaign and its battles")
    p.set_defaults(func=run)


@dataclass(frozen=True)
class CampaignRequest:
    """What the window opens for a campaign (game/ui/campaignwindow.py): battles one after another."""
    campaign: object
    state: object
    save_path: str
    opens_window = True
    draws = "campaign"


def run(args):
    from pathlib import Path

    from ..core.values.errors import RulesError
    from ..io.campaigns import load_campaign, load_campaign_save, save_campaign
    from ..io.paths import MAPS_DIR
    from ..play import campaign as flow
    from .common import MAX_SEED, bounded
    path = Path(args.campaign) if args.campaign else MAPS_DIR / "campaign" / "campaign.toml"
    campaign = load_campaign(path)
    if args.check:
        state = flow.start(campaign, args.seed)
        for battle in campaign.battles:     # every battle loads with the company in its slots
            state.next = battle.id
            flow.scenario_for(campaign, state)
        print(f"{campaign.title}: {len(campaign.battles)} battles, side {campaign.side}; ok")
        return 0
    save_path = Path(args.save or "campaign-save.json")
    if args.resume:
        state = load_campaign_save(save_path)
        if Path(state.campaign).resolve() != path.resolve():
            raise RulesError(f"{save_path} is a save of {state.campaign}, not {path}")
        if state.result:
            print(f"{campaign.title}: already over ({state.result})")
            return 0
    else:
        bounded("--seed", args.seed, 0, MAX_SEED)
        state = flow.start(campaign, args.seed)
        save_campaign(state, save_path)
    if not args.auto:
        return CampaignRequest(campaign, state, str(save_path))
    wanted = [c for c in args.choose.split(",") if c]

    def pick(offered):
        if wanted:
            want = wanted.pop(0)
            if want not in {c.id for c in offered}:
                raise RulesError(f"--choose {want!r}: not offered after {state.played[-1]['battle']}; "
                                 f"choices: {', '.join(c.id for c in offered)}")
            return want
        return offered[0].id

    print(f"{campaign.title} (side {campaign.side}), saved to {save_path} between battles")
    flow.play_headless(campaign, state, pick=pick, save=lambda s: save_campaign(s, save_path))
    return 0 if state.result == "victory" else 1
