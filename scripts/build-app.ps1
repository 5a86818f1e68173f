# Build the Aquarelle desktop app for Windows with PyInstaller: dist\Aquarelle\ holding
# Aquarelle.exe (the app, no console window) and aquarelle-cli.exe (the command line).
# Needs the project's virtualenv (.venv, made by `py -3.11 -m venv .venv` and
# `.venv\Scripts\python -m pip install -e .`); installs PyInstaller into it if missing.
# Usage (from the repository root or anywhere):
#   powershell -ExecutionPolicy Bypass -File scripts\build-app.ps1 [-Clean]
# See docs/packaging.md.
param([switch]$Clean)
$ErrorActionPreference = "Stop"
Set-Location (Split-Path -Parent $PSScriptRoot)

$PyInstallerVersion = "6.22.3"
$Py = if ($env:AQUARELLE_PYTHON) { $env:AQUARELLE_PYTHON } else { ".venv\Scripts\python.exe" }

if (-not (Test-Path $Py)) {
    Write-Error ("build-app: no virtualenv at .venv; make one first:`n" +
                 "  py -3.11 -m venv .venv; .venv\Scripts\python -m pip install -e .")
}
# (The checks print nothing on stderr: Windows PowerShell 5.1 with "Stop" would end the script
# on a native command's stderr line when it is redirected.)
& $Py -c "import importlib.util as u, sys; sys.exit(0 if u.find_spec('aquarelle') else 1)"
if ($LASTEXITCODE -ne 0) {
    Write-Error "build-app: aquarelle is not installed in $Py; run: $Py -m pip install -e ."
}
$installed = (& $Py -c "import importlib.util as u; print(__import__('PyInstaller').__version__ if u.find_spec('PyInstaller') else '')")
if ("$installed".Trim() -ne $PyInstallerVersion) {
    Write-Host "build-app: installing pyinstaller==$PyInstallerVersion into $Py"
    & $Py -m pip install -q "pyinstaller==$PyInstallerVersion"
    if ($LASTEXITCODE -ne 0) { Write-Error "build-app: pip install pyinstaller failed" }
}

$pyiArgs = @("--noconfirm", "--distpath", "dist", "--workpath", "build\pyinstaller")
if ($Clean) { $pyiArgs += "--clean" }
if (Test-Path dist\Aquarelle) { Remove-Item -Recurse -Force dist\Aquarelle }
& $Py -m PyInstaller @pyiArgs scripts\packaging\aquarelle.spec
if ($LASTEXITCODE -ne 0) { Write-Error "build-app: PyInstaller failed ($LASTEXITCODE)" }

$size = (Get-ChildItem -Recurse dist\Aquarelle | Measure-Object -Property Length -Sum).Sum
Write-Host ("build-app: built dist\Aquarelle ({0:N0} MB); try: dist\Aquarelle\aquarelle-cli.exe --help" -f ($size / 1MB))
