"""`--set watercolor.bypass=true` on a lone style (trial X, finding 10): `watercolor.dilution`
is taken from a lone watercolor, its bypass was refused as unknown with the list of the 70
names it has. It is refused in one line saying that bypass is a chain's switch."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from aquarelle.cli.main import main
from aquarelle.engine.chain_spec import load_chain, param_set
from aquarelle.engine.errors import ParamError
from aquarelle.engine.params import ParamSet
from aquarelle.engine.style import load_style

SAID = "bypass applies in a chain of styles (it leaves one of them out); watercolor is " \
       "painted alone here"


@pytest.mark.parametrize("name", ["watercolor.bypass", "bypass"])
def test_a_lone_styles_bypass_is_refused_saying_it_is_a_chains(tmp_path, capsys, name):
    src = tmp_path / "in.png"
    Image.fromarray(np.full((24, 32, 3), 128, np.uint8)).save(src)
    out = tmp_path / "out.png"
    assert main(["render", str(src), "-o", str(out), "--set", f"{name}=true"]) == 2
    assert capsys.readouterr().err == (f"aquarelle render: error: unknown parameter "
                                       f"{name!r}: {SAID}\n")
    assert not out.exists()


def test_the_chains_bypass_and_the_lone_styles_own_names_are_as_before():
    lone = ParamSet(load_style("watercolor").params, scope="watercolor")
    lone.update({"watercolor.dilution": 0.5})
    assert lone["dilution"] == 0.5
    with pytest.raises(ParamError, match="did you mean"):
        lone.canonical("watercolor.dilutio")
    chain = param_set(load_chain("denoise+watercolor"))
    chain.update({"watercolor.bypass": True})
    assert chain["watercolor.bypass"] is True
    with pytest.raises(ParamError, match="ambiguous parameter 'bypass'"):
        chain.canonical("bypass")
