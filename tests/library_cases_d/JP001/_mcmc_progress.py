"""Progress reporting for fori_loop-driven samplers (numpyro.util style).

The body of a sampler's ``lax.fori_loop`` is wrapped so that every
``print_rate`` iterations the host prints how far the chain has got.
"""
from jax import lax
from jax.experimental import io_callback


def progress_bar_factory(num_samples, print_rate=None, desc="sample"):
    rate = print_rate or max(1, num_samples // 20)

    def _report(iter_num):
        print(f"{desc}: {int(iter_num)}/{num_samples}", flush=True)

    def _update(iter_num):
        lax.cond(
            iter_num % rate == 0,
            lambda _: io_callback(_report, None, iter_num, ordered=False),
            lambda _: None,
            operand=None,
        )

    def progress_bar_fori_loop(body_fun):
        def wrapped(i, carry):
            _update(i)
            return body_fun(i, carry)

        return wrapped

    return progress_bar_fori_loop
