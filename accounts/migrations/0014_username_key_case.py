from django.db import migrations


def refresh(apps, schema_editor):
    """The key now reads "i" as "l" (accounts.usernames.lookalike_key), so "ALICE" and "alice"
    share one: recompute every key; of names that now collide, the oldest keeps the plain key
    and each later one gets "<key>#<id>", as in 0010."""
    from accounts import usernames

    usernames.refresh_keys(apps.get_model("accounts", "User"))


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0013_claim_windows_explained"),
    ]

    operations = [
        migrations.RunPython(refresh, migrations.RunPython.noop),
    ]
