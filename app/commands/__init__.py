"""Subcommands of the ``quatlab`` command line, one module each."""


def add_order_argument(parser) -> None:
    """``--order wxyz|xyzw``, shared by the commands that read keyframe tables."""
    parser.add_argument(
        "--order",
        choices=("wxyz", "xyzw"),
        help="component order of CSV/JSON tracks that do not declare it (glTF is xyzw)",
    )
