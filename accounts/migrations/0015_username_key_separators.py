from django.db import migrations


def refresh(apps, schema_editor):
    """The key now reads the separators "_", "." and "-" as one (accounts.usernames.lookalike_key),
    so "qa_bob" and "qa.bob" share one: recompute every key; of names that now collide, the
    oldest keeps the plain key and each later one gets "<key>#<id>", as in 0010."""
    from accounts import usernames

    usernames.refresh_keys(apps.get_model("accounts", "User"))


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0014_username_key_case"),
    ]

    operations = [
        migrations.RunPython(refresh, migrations.RunPython.noop),
    ]
