"""Create the role groups (researcher, qa_reviewer, viewer) with their permissions.

The rules live in ``annotations/qa/roles.py``; the post-migrate signal applies them again after
every migrate, so apps added later (releases, evaluation runs) get into the right roles.
"""

from django.db import migrations


def create_roles(apps, schema_editor):
    from annotations.qa.roles import sync_roles

    sync_roles(apps, using=schema_editor.connection.alias)


def remove_roles(apps, schema_editor):
    apps.get_model("auth", "Group").objects.using(schema_editor.connection.alias).filter(
        name__in=["researcher", "qa_reviewer", "viewer"]
    ).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("qa", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_roles, remove_roles)]
