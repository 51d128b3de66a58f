"""The utf8ext wheel: the prebuilt SQLite module inside a Python package.

tools/wheel.sh copies this directory to build/wheel/src with utf8ext.so,
LICENSE and README.md beside it, then runs "python3 -m build --wheel
--no-isolation" there. The module is loaded by SQLite, not imported by
Python, so the wheel is tagged py3-none-<platform>: any Python 3 on this
platform, one wheel.
"""
import re
from setuptools import setup
from setuptools.dist import Distribution
from wheel.bdist_wheel import bdist_wheel

with open("utf8ext.h", encoding="utf-8") as f:
    VERSION = re.search(r'define UTF8EXT_VERSION "([^"]+)"', f.read()).group(1)


class PlatformWheel(bdist_wheel):
    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):
        _, _, plat = super().get_tag()
        return "py3", "none", plat


class BinaryDistribution(Distribution):
    def has_ext_modules(self):
        return True


setup(
    name="utf8ext",
    version=VERSION,
    description="SQLite extension that validates, decodes and repairs UTF-8 (RFC 3629)",
    long_description=open("README.md", encoding="utf-8").read(),
    long_description_content_type="text/markdown",
    license="MIT",
    license_files=["LICENSE"],
    classifiers=[
        "License :: OSI Approved :: MIT License",
        "Programming Language :: Python :: 3",
        "Programming Language :: C",
        "Topic :: Database",
        "Operating System :: POSIX :: Linux",
    ],
    python_requires=">=3.7",
    packages=["utf8ext"],
    package_data={"utf8ext": ["utf8ext.so", "utf8ext.dylib", "utf8ext.dll", "py.typed", "__init__.pyi"]},
    include_package_data=False,
    zip_safe=False,
    distclass=BinaryDistribution,
    cmdclass={"bdist_wheel": PlatformWheel},
)
