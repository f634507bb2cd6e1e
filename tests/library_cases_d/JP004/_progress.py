"""Host progress reporting for sampling loops (numpyro.util style)."""
from jax import lax
from jax.experimental import io_callback


def progress_bar_factory(num_samples, num_chains, print_rate=None):
    rate = print_rate or max(1, num_samples // 10)

    def _report(iter_num):
        print(f"[{num_chains} chains] iteration {int(iter_num)}/{num_samples}", flush=True)

    def decorator(body_fun):
        def wrapped(i, carry):
            lax.cond(
                i % rate == 0,
                lambda _: io_callback(_report, None, i),
                lambda _: None,
                operand=None,
            )
            return body_fun(i, carry)

        return wrapped

    return decorator
