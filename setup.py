from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "games.stoneage.rules._core",
            ["games/stoneage/rules/_core.c"],
            optional=True,
            extra_compile_args=["-O2", "-std=c99"],
        )
    ]
)
